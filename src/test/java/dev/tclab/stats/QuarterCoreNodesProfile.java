package dev.tclab.stats;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Lab nodes limited to a quarter of a core: a busy loop holds that limit even while the suite's other lane loads the
 * host's two cores, so a test about a node at its limit does not depend on what runs beside it.
 */
public class QuarterCoreNodesProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tclab.lab.cpus", "0.25");
    }
}
