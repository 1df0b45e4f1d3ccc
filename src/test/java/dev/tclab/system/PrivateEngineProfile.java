package dev.tclab.system;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * Runs a @QuarkusTest against a dockerd of its own ({@link PrivateDockerd}), which the test may stop and start.
 * Engine checks and culling run every second, so outages and recoveries show quickly.
 */
public class PrivateEngineProfile implements QuarkusTestProfile {

    static final PrivateDockerd DOCKERD = new PrivateDockerd();

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(Engine.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("tclab.docker.check-interval", "1s", "tclab.lab.cull-interval", "1s");
    }

    /** Starts the private engine before the app, with the lab image in it, and removes everything after. */
    public static class Engine implements QuarkusTestResourceLifecycleManager {

        @Override
        public Map<String, String> start() {
            try {
                DOCKERD.start();
                DOCKERD.ensureImage();
            } catch (Exception e) {
                throw new IllegalStateException("could not start the test's private dockerd: " + e.getMessage(), e);
            }
            return Map.of("tclab.docker.host", DOCKERD.host());
        }

        @Override
        public void stop() {
            try {
                DOCKERD.removeAll();
            } catch (Exception e) {
                throw new IllegalStateException("could not clean up the test's private dockerd: " + e.getMessage(), e);
            }
        }
    }
}
