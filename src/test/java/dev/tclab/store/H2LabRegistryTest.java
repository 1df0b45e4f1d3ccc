package dev.tclab.store;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The lab registry on the embedded H2 (the test profile's in-memory database). */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class H2LabRegistryTest extends LabRegistryContract {}
