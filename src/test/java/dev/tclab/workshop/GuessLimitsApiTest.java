package dev.tclab.workshop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;

import dev.tclab.host.HostAccount;
import dev.tclab.host.HostAccounts;
import dev.tclab.host.TestHosts;
import dev.tclab.lab.ClientLimitsProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, rows 4 and 5: join codes were guessed at 701 tries a second and host passwords 40 times, never refused.
 * Now wrong join codes and wrong passwords are limited per client address and per host name. The app trusts
 * 127.0.0.1 as a proxy here, so each test plays its own client through X-Forwarded-For.
 */
@QuarkusTest
@TestProfile(ClientLimitsProfile.class)
class GuessLimitsApiTest {

    private static final String PASSWORD = "correct horse battery";

    @Inject
    HostAccounts accounts;

    @Test
    void shouldRefuseTheEleventhWrongJoinCodeFromOneAddressWithRetryAfterEvenForTheRightCode() {
        String host = host("ws", false);
        String code = given().cookie("tclab_host", signIn(host, "198.51.100.50"))
                .contentType(ContentType.JSON)
                .body("{\"title\": \"Guessing class\", \"lessons\": [\"example\"]}")
                .post("/api/host/events")
                .then()
                .statusCode(201)
                .extract()
                .path("event.joinCode");
        for (int i = 0; i < 10; i++) {
            given().header("X-Forwarded-For", "198.51.100.1")
                    .get("/api/join/ZZZZZ" + i)
                    .then()
                    .statusCode(404);
        }
        Response refused = given().header("X-Forwarded-For", "198.51.100.1").get("/api/join/" + code);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Integer.parseInt(refused.header("Retry-After"))).isBetween(1, 60);
        assertThat(refused.jsonPath().getString("error")).contains("wrong join codes", "Wait");
        given().header("X-Forwarded-For", "198.51.100.1")
                .contentType(ContentType.JSON)
                .body("{\"code\": \"" + code + "\", \"name\": \"Guesser\"}")
                .post("/api/join")
                .then()
                .statusCode(429);
        given().header("X-Forwarded-For", "198.51.100.2")
                .get("/api/join/" + code)
                .then()
                .statusCode(200);
    }

    @Test
    void shouldSlowThenLockAHostNameAndShowTheLockToAdmins() throws InterruptedException {
        String name = host("locked", false);
        for (int i = 0; i < 4; i++) {
            signInAs(name, "wrong " + i, "198.51.100.10").then().statusCode(401);
        }
        Response slowed = signInAs(name, PASSWORD, "198.51.100.11");
        assertThat(slowed.statusCode())
                .as("the fourth failure makes the name wait, from any address")
                .isEqualTo(429);
        assertThat(slowed.header("Retry-After")).isEqualTo("1");
        assertThat(untilNotWaiting(() -> signInAs(name, "wrong 5", "198.51.100.10"))
                        .statusCode())
                .isEqualTo(401);
        Response locked = signInAs(name, PASSWORD, "198.51.100.12");
        assertThat(locked.statusCode())
                .as("the right password waits out the lock too")
                .isEqualTo(429);
        assertThat(Integer.parseInt(locked.header("Retry-After"))).isBetween(890, 900);
        assertThat(locked.jsonPath().getString("error")).contains("Too many wrong passwords");

        String admin = signIn(host("admin", true), "198.51.100.13");
        given().cookie("tclab_host", admin)
                .get("/api/host/session")
                .then()
                .statusCode(200)
                .body("signInLocks.what", hasItem("host name " + name));
        given().cookie("tclab_host", signIn(host("plain", false), "198.51.100.14"))
                .get("/api/host/session")
                .then()
                .statusCode(200)
                .body("signInLocks.size()", org.hamcrest.Matchers.equalTo(0));
    }

    @Test
    void shouldSlowAnAddressThatTriesManyHostNames() {
        for (int i = 0; i < 7; i++) {
            signInAs("nobody" + i, "wrong", "198.51.100.20").then().statusCode(401);
        }
        signInAs("nobody9", "wrong", "198.51.100.20")
                .then()
                .statusCode(429)
                .body("error", containsString("from your address"));
        signInAs("nobody9", "wrong", "198.51.100.21").then().statusCode(401);
    }

    /** Tries every 200 ms until the answer is not 429, for at most 5 s. */
    private static Response untilNotWaiting(java.util.function.Supplier<Response> attempt) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        Response response = attempt.get();
        while (response.statusCode() == 429 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            response = attempt.get();
        }
        return response;
    }

    private String host(String prefix, boolean admin) {
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        assertThat(accounts.add(new HostAccount(name, TestHosts.hash(PASSWORD), admin)))
                .isTrue();
        return name;
    }

    private String signIn(String name, String address) {
        return signInAs(name, PASSWORD, address)
                .then()
                .statusCode(200)
                .extract()
                .cookie("tclab_host");
    }

    private static Response signInAs(String name, String password, String address) {
        return given().header("X-Forwarded-For", address)
                .contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"" + password + "\"}")
                .post("/api/host/session");
    }
}
