package dev.tclab.terminal;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Real Docker, with shells ended as soon as their socket closes (no grace period), to observe resource release. */
public class ZeroGraceProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tclab.terminal.grace-period", "0s");
    }
}
