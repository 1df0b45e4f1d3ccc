package dev.tclab.system;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** With the engine (here the fake one) and the database answering, the app is ready, and says what it checked. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class ReadinessTest {

    @Test
    void shouldBeReadyWhenTheEngineAndTheDatabaseAnswer() {
        given().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'Docker engine' }.status", equalTo("UP"))
                .body("checks.name", hasItem(containsString("Database")));
    }
}
