package dev.tclab.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OriginsTest {

    @Test
    void shouldAcceptThePagesOwnOrigin() {
        assertTrue(Origins.sameOrigin("http://lab.example:8080", "lab.example:8080", false));
        assertTrue(Origins.sameOrigin("https://Lab.Example", "lab.example", true));
        assertTrue(Origins.sameOrigin("http://lab.example", "lab.example:80", false));
    }

    @Test
    void shouldRefuseOtherSitesPortsAndMissingOrigins() {
        assertFalse(Origins.sameOrigin("http://evil.example:8080", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example:9090", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example.evil.example", "lab.example", false));
        assertFalse(Origins.sameOrigin(null, "lab.example", false));
        assertFalse(Origins.sameOrigin("null", "lab.example", false));
        assertFalse(Origins.sameOrigin("http://lab.example", null, false));
    }

    @Test
    void shouldRefuseOriginsThatAreNotBareSchemeHostAndPort() {
        // Issue 10: an Origin with userinfo named localhost as its host and passed.
        assertFalse(Origins.sameOrigin("http://evil.com@lab.example:8080", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example:8080@evil.com", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example:8080/path", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example:8080?q", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("ftp://lab.example:8080", "lab.example:8080", false));
        assertFalse(Origins.sameOrigin("http://lab.example:8080", "evil.com@lab.example:8080", false));
    }
}
