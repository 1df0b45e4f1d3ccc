package dev.tclab.store;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** The workshop store contract on a real PostgreSQL ({@code bin/ensure-postgres}); fails when it does not answer. */
@QuarkusTest
@TestProfile(PostgresProfile.class)
class PostgresWorkshopStoreIT extends WorkshopStoreContract {}
