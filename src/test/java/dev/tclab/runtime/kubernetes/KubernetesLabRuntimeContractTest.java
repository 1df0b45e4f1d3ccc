package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.LabRuntimeContract;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RuntimeAdapter;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The {@link LabRuntimeContract} on the fabric8 mock API server (CRUD mode) with a simulated scheduler and kubelet
 * answering execs ({@link MockCluster}). No real cluster was available: this proves what the runtime asks of the API
 * server and how it reads the answers, not that a kubelet runs the pods as simulated.
 */
class KubernetesLabRuntimeContractTest extends LabRuntimeContract {

    static final String NAMESPACE = "tclab-labs";

    private static MockCluster cluster;
    private static KubernetesLabRuntime runtime;

    @BeforeAll
    static void startCluster() {
        cluster = new MockCluster("worker-1", "worker-2");
        var config = TestConfig.tclab(Map.of());
        cluster.runDaemonSet(new LabObjects(config).wiringHelper("tclab-wiring", "tclab/lab-node:1"));
        runtime = new KubernetesLabRuntime(cluster.client, config, lesson -> Optional.empty());
    }

    /** Closes the cluster after the contract's shared lab is stopped (a subclass's {@code @AfterAll} runs first). */
    @Override
    @AfterAll
    protected void stopSharedLab() throws Exception {
        super.stopSharedLab();
        runtime.close();
        cluster.close();
    }

    @Override
    protected RuntimeAdapter runtime() {
        return runtime;
    }

    @Override
    protected void plantExpiredLab(String labId) {
        var labels = Map.of(
                LabelKeys.APP,
                "tclab",
                LabelKeys.INSTANCE,
                "tclab-gone",
                LabelKeys.ROLE,
                LabelKeys.ROLE_NODE,
                LabelKeys.LAB,
                labId,
                LabelKeys.NODE,
                "client",
                LabelKeys.EXPIRES,
                Long.toString(Instant.now().minusSeconds(60).getEpochSecond()));
        cluster.client
                .pods()
                .inNamespace(NAMESPACE)
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("tclab-" + labId + "-client")
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("node")
                        .withImage("tclab/lab-node:1")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    @Override
    protected boolean leftOnEngine(String labId) {
        return !cluster.client
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel(LabelKeys.LAB, labId)
                .list()
                .getItems()
                .isEmpty();
    }

    @Override
    protected Instant expiryOf(String labId) {
        return Instant.ofEpochSecond(Long.parseLong(cluster.client
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel(LabelKeys.LAB, labId)
                .list()
                .getItems()
                .get(0)
                .getMetadata()
                .getLabels()
                .get(LabelKeys.EXPIRES)));
    }
}
