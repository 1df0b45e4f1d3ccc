package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.runtime.KernelChoice;
import dev.tclab.runtime.LabRuntimeContract;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RuntimeAdapter;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@link LabRuntimeContract} on the real Docker engine. */
@QuarkusTest
class DockerLabRuntimeContractIT extends LabRuntimeContract {

    @Inject
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @Test
    void shouldBeTheDefaultRuntimeAndNeverBuildTheKubernetesClient() throws Exception {
        sharedLab();

        assertThat(ClientProxy.unwrap(runtime))
                .isInstanceOfSatisfying(
                        KernelChoice.class, choice -> assertThat(choice.host()).isInstanceOf(DockerLabRuntime.class));
        for (Class<? extends Annotation> scope : List.of(Singleton.class, ApplicationScoped.class)) {
            assertThat(Arc.container()
                            .getActiveContext(scope)
                            .getState()
                            .getContextualInstances()
                            .keySet())
                    .as("beans built")
                    .noneMatch(bean -> bean.getTypes().contains(KubernetesClient.class)
                            || bean.getBeanClass().getName().contains("Kubernetes"));
        }
    }

    @Override
    protected RuntimeAdapter runtime() {
        return runtime;
    }

    @Override
    protected void plantExpiredLab(String labId) {
        String expired = Long.toString(Instant.now().minusSeconds(60).getEpochSecond());
        for (String role : new String[] {LabelKeys.ROLE_NODE, Labels.ROLE_SIDECAR}) {
            String id = docker.createContainerCmd("tclab/lab-node:1")
                    .withCmd("sleep", "600")
                    .withLabels(Map.of(
                            LabelKeys.APP,
                            "tclab",
                            LabelKeys.INSTANCE,
                            "tclab-gone",
                            LabelKeys.ROLE,
                            role,
                            LabelKeys.LAB,
                            labId,
                            LabelKeys.EXPIRES,
                            expired))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                    .exec()
                    .getId();
            docker.startContainerCmd(id).exec();
        }
    }

    @Override
    protected boolean leftOnEngine(String labId) {
        return !docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(LabelKeys.LAB, labId))
                .exec()
                .isEmpty();
    }

    @Override
    protected Instant expiryOf(String labId) {
        return Instant.ofEpochSecond(Long.parseLong(docker.listContainersCmd()
                .withLabelFilter(Map.of(LabelKeys.LAB, labId, LabelKeys.ROLE, LabelKeys.ROLE_NODE))
                .exec()
                .get(0)
                .getLabels()
                .get(LabelKeys.EXPIRES)));
    }
}
