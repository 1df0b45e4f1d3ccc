package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.lab.LabRuntime;
import dev.tclab.lab.LabRuntimeContract;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;

/** The {@link LabRuntimeContract} on the real Docker engine. */
@QuarkusTest
class DockerLabRuntimeContractIT extends LabRuntimeContract {

    @Inject
    LabRuntime runtime;

    @Inject
    DockerClient docker;

    @Override
    protected LabRuntime runtime() {
        return runtime;
    }

    @Override
    protected void plantExpiredLab(String labId) {
        String expired = Long.toString(Instant.now().minusSeconds(60).getEpochSecond());
        for (String role : new String[] {Labels.ROLE_NODE, Labels.ROLE_SIDECAR}) {
            String id = docker.createContainerCmd("tclab/lab-node:1").withCmd("sleep", "600")
                    .withLabels(Map.of(Labels.APP, "tclab", Labels.INSTANCE, "tclab-gone", Labels.ROLE, role,
                            Labels.LAB, labId, Labels.EXPIRES, expired))
                    .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                    .exec().getId();
            docker.startContainerCmd(id).exec();
        }
    }

    @Override
    protected boolean leftOnEngine(String labId) {
        return !docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(Labels.LAB, labId)).exec().isEmpty();
    }

    @Override
    protected Instant expiryOf(String labId) {
        return Instant.ofEpochSecond(Long.parseLong(docker.listContainersCmd()
                .withLabelFilter(Map.of(Labels.LAB, labId, Labels.ROLE, Labels.ROLE_NODE)).exec().get(0)
                .getLabels().get(Labels.EXPIRES)));
    }
}
