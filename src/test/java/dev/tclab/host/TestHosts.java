package dev.tclab.host;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.elytron.security.common.BcryptUtil;
import io.restassured.http.ContentType;
import java.util.UUID;

/** What tests that act as a workshop host share. */
public final class TestHosts {

    public static final String PASSWORD = "host password 1";

    /**
     * Bcrypt's lowest cost: the app checks a password at the cost its stored hash names, so a test's host signs in
     * through the same code in milliseconds instead of the shipped cost's quarter second per hash and per check
     * (PasswordsTest holds what the app itself hashes with).
     */
    private static final int TEST_COST = 4;

    private TestHosts() {}

    /** A bcrypt hash of {@code password} for a host account a test makes. */
    public static String hash(String password) {
        return BcryptUtil.bcryptHash(password, TEST_COST);
    }

    /** Adds a host named {@code prefix} plus a random suffix, signs it in, and returns its session cookie value. */
    public static String signedIn(HostAccounts accounts, String prefix) {
        String name = prefix + UUID.randomUUID().toString().substring(0, 8);
        assertThat(accounts.add(new HostAccount(name, hash(PASSWORD), false))).isTrue();
        return given().contentType(ContentType.JSON)
                .body("{\"name\": \"" + name + "\", \"password\": \"" + PASSWORD + "\"}")
                .post("/api/host/session")
                .then()
                .statusCode(200)
                .extract()
                .cookie(HostSessions.COOKIE);
    }
}
