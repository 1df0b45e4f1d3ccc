package dev.tclab.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PasswordsTest {

    @Test
    void aHashMatchesItsPasswordOnly() {
        String hash = Passwords.hash("correct horse battery");
        assertThat(hash).startsWith("$2a$12$").doesNotContain("correct");
        assertThat(Passwords.matches(hash, "correct horse battery")).isTrue();
        assertThat(Passwords.matches(hash, "correct horse batterY")).isFalse();
        assertThat(Passwords.matches(null, "correct horse battery")).isFalse();
        assertThat(Passwords.matches("not a hash", "x")).isFalse();
    }

    @Test
    void shortOrOverlongPasswordsAreRefusedWithAReason() {
        assertThat(Passwords.weakness("short")).contains("at least 10");
        assertThat(Passwords.weakness("x".repeat(73))).contains("72");
        assertThat(Passwords.weakness("long enough password")).isNull();
    }
}
