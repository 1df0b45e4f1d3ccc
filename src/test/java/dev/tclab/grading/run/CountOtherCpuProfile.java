package dev.tclab.grading.run;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The app as it ships: measurement admission counts other work on the host (the test profile turns that off). */
public class CountOtherCpuProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tclab.grading.count-other-cpu", "true");
    }
}
