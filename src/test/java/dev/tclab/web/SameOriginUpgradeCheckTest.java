package dev.tclab.web;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SameOriginUpgradeCheckTest {

    @Test
    void shouldAcceptThePagesOwnOrigin() {
        assertTrue(SameOriginUpgradeCheck.sameOrigin("http://lab.example:8080", "lab.example:8080", false));
        assertTrue(SameOriginUpgradeCheck.sameOrigin("https://Lab.Example", "lab.example", true));
        assertTrue(SameOriginUpgradeCheck.sameOrigin("http://lab.example", "lab.example:80", false));
    }

    @Test
    void shouldRefuseOtherSitesPortsAndMissingOrigins() {
        assertFalse(SameOriginUpgradeCheck.sameOrigin("http://evil.example:8080", "lab.example:8080", false));
        assertFalse(SameOriginUpgradeCheck.sameOrigin("http://lab.example:9090", "lab.example:8080", false));
        assertFalse(SameOriginUpgradeCheck.sameOrigin("http://lab.example.evil.example", "lab.example", false));
        assertFalse(SameOriginUpgradeCheck.sameOrigin(null, "lab.example", false));
        assertFalse(SameOriginUpgradeCheck.sameOrigin("null", "lab.example", false));
        assertFalse(SameOriginUpgradeCheck.sameOrigin("http://lab.example", null, false));
    }
}
