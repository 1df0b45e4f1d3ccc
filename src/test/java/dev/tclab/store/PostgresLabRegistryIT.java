package dev.tclab.store;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The lab registry on a real PostgreSQL ({@code bin/ensure-postgres}); fails when it does not answer. */
@QuarkusTest
@TestProfile(PostgresProfile.class)
class PostgresLabRegistryIT extends LabRegistryContract {}
