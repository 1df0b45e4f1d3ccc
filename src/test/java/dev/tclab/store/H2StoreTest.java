package dev.tclab.store;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The store contract on the embedded H2 (the test profile's in-memory database); no lab is needed. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class H2StoreTest extends StoreContract {}
