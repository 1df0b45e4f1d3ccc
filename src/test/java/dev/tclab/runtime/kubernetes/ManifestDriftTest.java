package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operator applies deploy/kubernetes/'s wiring DaemonSet and isolation NetworkPolicy; the runtime builds the same
 * objects in code (and creates the policy when missing). The two must not drift apart.
 */
class ManifestDriftTest {

    private static final Path DIR = Path.of("deploy", "kubernetes");

    private final LabObjects objects = new LabObjects(TestConfig.tclab(Map.of()));

    @Test
    void shouldApplyTheWiringHelperTheRuntimeExpects() throws IOException {
        DaemonSet applied = read("wiring-daemonset.yaml", DaemonSet.class);
        DaemonSet built = objects.wiringHelper("tclab-wiring", "tclab/lab-node:1");
        assertThat(applied.getMetadata().getName())
                .isEqualTo(built.getMetadata().getName());
        assertThat(applied.getSpec()).isEqualTo(built.getSpec());
    }

    @Test
    void shouldApplyTheIsolationPolicyTheRuntimeCreates() throws IOException {
        NetworkPolicy applied = read("networkpolicy.yaml", NetworkPolicy.class);
        NetworkPolicy built = objects.isolation();
        assertThat(applied.getMetadata().getName())
                .isEqualTo(built.getMetadata().getName());
        assertThat(applied.getSpec()).isEqualTo(built.getSpec());
    }

    private static <T> T read(String file, Class<T> type) throws IOException {
        try (InputStream in = Files.newInputStream(DIR.resolve(file))) {
            return Serialization.unmarshal(in, type);
        }
    }
}
