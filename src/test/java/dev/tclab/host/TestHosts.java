package dev.tclab.host;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import java.util.UUID;

/** What tests that act as a workshop host share. */
public final class TestHosts {

    public static final String PASSWORD = "host password 1";

    private TestHosts() {}

    /** Adds a host named {@code prefix} plus a random suffix, signs it in, and returns its session cookie value. */
    public static String signedIn(HostAccounts accounts, String prefix) {
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        assertThat(accounts.add(new HostAccount(name, Passwords.hash(PASSWORD), false)))
                .isTrue();
        return given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"" + PASSWORD + "\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .cookie(HostSessions.COOKIE);
    }
}
