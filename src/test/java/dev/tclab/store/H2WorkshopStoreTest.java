package dev.tclab.store;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The workshop store contract on the embedded H2. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class H2WorkshopStoreTest extends WorkshopStoreContract {}
