package dev.tclab.runtime.uml;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.runtime.LabRuntimeContract;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.docker.Labels;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;

/** The {@link LabRuntimeContract} on User-Mode Linux labs, on the real Docker engine. */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class UmlLabRuntimeContractIT extends LabRuntimeContract {

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @Override
    protected RuntimeAdapter runtime() {
        return runtime;
    }

    @Override
    protected void plantExpiredLab(String labId) {
        String expired = Long.toString(Instant.now().minusSeconds(60).getEpochSecond());
        String id = docker.createContainerCmd("tclab/lab-uml:2")
                .withCmd("sleep", "600")
                .withLabels(Map.of(
                        LabelKeys.APP,
                        "tclab",
                        LabelKeys.INSTANCE,
                        "tclab-gone",
                        LabelKeys.ROLE,
                        Labels.ROLE_UML,
                        LabelKeys.LAB,
                        labId,
                        Labels.NODES,
                        "client,server",
                        LabelKeys.EXPIRES,
                        expired))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                .exec()
                .getId();
        docker.startContainerCmd(id).exec();
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
                .withLabelFilter(Map.of(LabelKeys.LAB, labId, LabelKeys.ROLE, Labels.ROLE_UML))
                .exec()
                .get(0)
                .getLabels()
                .get(LabelKeys.EXPIRES)));
    }
}
