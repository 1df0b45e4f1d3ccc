package dev.tclab.host;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.tclab.lab.FakeRuntimeProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Host sessions end on the server: after sign-out, a copy of that session's cookie is no host's any more (while the
 * host's other sessions stay), and a password change ends them all. The setup route refuses once a host exists.
 */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class HostSessionApiTest {

    private static final String PASSWORD = "host password 1";

    @Inject
    HostAccounts accounts;

    private static String signIn(String name, String password) {
        return given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"" + password + "\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .cookie(HostSessions.COOKIE);
    }

    private String newHost() {
        String name = "sess" + UUID.randomUUID().toString().substring(0, 8);
        accounts.add(new HostAccount(name, TestHosts.hash(PASSWORD), false));
        return name;
    }

    @Test
    void signOutEndsThatSessionOnTheServerAndNoOther() {
        String name = newHost();
        String laptop = signIn(name, PASSWORD);
        String phone = signIn(name, PASSWORD);
        given().cookie(HostSessions.COOKIE, laptop)
                .get("/api/host/session")
                .then()
                .statusCode(200)
                .body("name", equalTo(name));

        given().cookie(HostSessions.COOKIE, laptop)
                .contentType(ContentType.JSON)
                .delete("/api/host/session")
                .then()
                .statusCode(204);
        // The browser drops the cookie; a copy of it (stolen, or a second tab's) is no host's now.
        given().cookie(HostSessions.COOKIE, laptop)
                .get("/api/host/session")
                .then()
                .statusCode(403);
        given().cookie(HostSessions.COOKIE, laptop)
                .get("/api/host/events")
                .then()
                .statusCode(403);
        given().cookie(HostSessions.COOKIE, laptop)
                .redirects()
                .follow(false)
                .get("/host")
                .then()
                .statusCode(303);
        given().cookie(HostSessions.COOKIE, phone)
                .get("/api/host/session")
                .then()
                .statusCode(200)
                .body("name", equalTo(name));
    }

    @Test
    void aPasswordChangeEndsEverySessionOfTheHost() {
        String name = newHost();
        String session = signIn(name, PASSWORD);
        accounts.setPassword(name, TestHosts.hash("another password 2"));
        given().cookie(HostSessions.COOKIE, session)
                .get("/api/host/session")
                .then()
                .statusCode(403);
        given().cookie(HostSessions.COOKIE, signIn(name, "another password 2"))
                .get("/api/host/session")
                .then()
                .statusCode(200);
    }

    @Test
    void theSetupIsClosedOnceAHostExists() {
        newHost();
        given().get("/api/host/setup").then().statusCode(200).body("open", equalTo(false));
        given().contentType(ContentType.JSON)
                .body("{\"token\": \"ANYTHING\", \"name\": \"eve\", \"password\": \"" + PASSWORD + "\"}")
                .post("/api/host/setup")
                .then()
                .statusCode(410)
                .body("error", containsString("/host/sign-in"));
        given().get("/host/setup").then().statusCode(200).body(containsString("one-time setup token"));
    }
}
