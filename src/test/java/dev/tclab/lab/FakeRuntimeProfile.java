package dev.tclab.lab;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/**
 * Runs a @QuarkusTest with {@link FakeLabRuntime} in place of Docker and a {@link MovableClock}. All fake-based tests
 * share this one profile.
 */
public class FakeRuntimeProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(FakeLabRuntime.class, MovableClock.class);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tclab.lab.max-running", "3", "tclab.lab.queue-size", "2", "tclab.docker.check-interval", "1s");
    }
}
