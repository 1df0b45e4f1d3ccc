package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.topology.TopologySource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What only the Kubernetes runtime does, on the fabric8 mock API server with a simulated scheduler and kubelet:
 * placement on one cluster node, wiring through the helper on that node, the sidecar and node containers, the
 * isolation policy, the kernel probe published as node labels, and its refusals.
 */
class KubernetesLabRuntimeTest {

    private static final String NAMESPACE = "tclab-labs";
    private static final TopologySource NO_REQUIREMENTS = lesson -> Optional.empty();

    /** The running test's cluster and runtime, closed after it. */
    private MockCluster cluster;

    private KubernetesLabRuntime runtime;

    private KubernetesLabRuntime runtimeOn(MockCluster cluster, boolean helpers, TopologySource topologies) {
        var config = TestConfig.tclab(Map.of());
        if (helpers) {
            cluster.runDaemonSet(new LabObjects(config).wiringHelper("tclab-wiring", "tclab/lab-node:1"));
        }
        this.cluster = cluster;
        this.runtime = new KubernetesLabRuntime(cluster.client, config, topologies);
        return this.runtime;
    }

    @AfterEach
    void close() {
        if (this.runtime != null) {
            this.runtime.close();
        }
        if (this.cluster != null) {
            this.cluster.close();
        }
    }

    private static LabSpec lab(String id, String topology) {
        return new LabSpec(id, TestTopologies.load(topology), "learner", topology);
    }

    private List<Pod> podsOf(String labId) {
        return this.cluster
                .client
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel(LabelKeys.LAB, labId)
                .list()
                .getItems();
    }

    @Test
    void shouldPutEveryPodOfALabOnTheClusterNodeOfItsFirstPod() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1", "worker-2"), true, NO_REQUIREMENTS);

        runtime.start(lab("lab1", "four-node"), (stage, detail) -> {});
        runtime.start(lab("lab2", "four-node"), (stage, detail) -> {});

        for (String labId : List.of("lab1", "lab2")) {
            assertThat(podsOf(labId))
                    .hasSize(4)
                    .extracting(p -> p.getSpec().getNodeName())
                    .as(labId)
                    .containsOnly(podsOf(labId).get(0).getSpec().getNodeName());
        }
        assertThat(podsOf("lab1").get(0).getSpec().getNodeName())
                .as("the scheduler spreads labs, so only the affinity keeps a lab together")
                .isNotEqualTo(podsOf("lab2").get(0).getSpec().getNodeName());
    }

    @Test
    void shouldWireTheLinksInTheHelperOnTheLabsClusterNodeByPodUid() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1", "worker-2"), true, NO_REQUIREMENTS);

        runtime.start(lab("lab1", "two-node"), (stage, detail) -> {});

        String host = podsOf("lab1").get(0).getSpec().getNodeName();
        var wirings = this.cluster.execs.stream()
                .filter(e -> e.container().equals("wiring"))
                .toList();
        assertThat(wirings).singleElement().satisfies(e -> {
            assertThat(e.pod()).isEqualTo("tclab-wiring-" + host);
            for (Pod pod : podsOf("lab1")) {
                assertThat(e.script())
                        .contains("pid_of " + pod.getMetadata().getUid() + " "
                                + pod.getMetadata().getUid().replace('-', '_'));
            }
            assertThat(e.script()).contains("ip link add eth1 netns $p0 type veth peer name eth1 netns $p1");
        });
    }

    @Test
    void shouldCutEveryPodOffTheClusterNetworkBeforeWiringIt() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), true, NO_REQUIREMENTS);

        runtime.start(lab("lab1", "two-node"), (stage, detail) -> {});

        var execs = this.cluster.execs;
        int wiring = execs.indexOf(execs.stream()
                .filter(e -> e.container().equals("wiring"))
                .findFirst()
                .orElseThrow());
        assertThat(execs.subList(0, wiring))
                .filteredOn(e -> e.script().contains("cluster$n"))
                .extracting(MockCluster.Exec::pod, MockCluster.Exec::container)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("tclab-lab1-client", "measure"),
                        org.assertj.core.groups.Tuple.tuple("tclab-lab1-server", "measure"));
        assertThat(runtime.exec("lab1", "client", List.of("sh", "-c", "ip -o link show"), Duration.ofSeconds(5))
                        .stdout())
                .contains(" cluster0:")
                .doesNotContain(" eth0");
        var policy = this.cluster
                .client
                .network()
                .v1()
                .networkPolicies()
                .inNamespace(NAMESPACE)
                .withName("tclab-labs-isolated")
                .get();
        assertThat(policy.getSpec())
                .isEqualTo(
                        new LabObjects(TestConfig.tclab(Map.of())).isolation().getSpec());
    }

    @Test
    void shouldMeasureInTheSidecarAndGiveTerminalsTheNodeWithATty() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), true, NO_REQUIREMENTS);
        runtime.start(lab("lab1", "two-node"), (stage, detail) -> {});
        this.cluster.execs.clear();

        runtime.exec("lab1", "server", List.of("true"), Duration.ofSeconds(5));
        try (var shell = runtime.shell("lab1", "client", List.of("bash", "-i"), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {}

            @Override
            public void onClosed(String reason) {}
        })) {
            shell.resize(100, 30);
        }

        assertThat(this.cluster.execs.get(0)).satisfies(e -> {
            assertThat(e.pod()).isEqualTo("tclab-lab1-server");
            assertThat(e.container()).isEqualTo("measure");
            assertThat(e.tty()).isFalse();
            assertThat(e.command()).startsWith("env").contains("timeout", "true");
        });
        assertThat(this.cluster.execs.get(1)).satisfies(e -> {
            assertThat(e.pod()).isEqualTo("tclab-lab1-client");
            assertThat(e.container()).isEqualTo("node");
            assertThat(e.tty()).isTrue();
            assertThat(e.command()).startsWith("env").endsWith("TERM=xterm-256color", "LANG=C.UTF-8", "bash", "-i");
        });
    }

    @Test
    void shouldEndAClosedShellByThePidFoundAsItStartedNotByAnythingInThePod() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), true, NO_REQUIREMENTS);
        runtime.start(lab("lab1", "two-node"), (stage, detail) -> {});
        this.cluster.execs.clear();

        runtime.shell("lab1", "client", List.of("bash", "-i"), new StreamListener() {
                    @Override
                    public void onOutput(byte[] chunk) {}

                    @Override
                    public void onClosed(String reason) {}
                })
                .close();

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (this.cluster.execs.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20); // the hang-up runs on a background thread once the shell is closed
        }
        var execs = this.cluster.execs;
        String marker = execs.get(0).command().get(1);
        assertThat(marker).startsWith("TCLAB_STREAM=");
        long[] shell = this.cluster.streams.get(marker);
        assertThat(execs.get(1)).satisfies(e -> {
            assertThat(e.container()).isEqualTo("node");
            assertThat(e.script()).contains("grep -qsaxz '" + marker + "'");
        });
        assertThat(execs.get(2)).satisfies(e -> {
            assertThat(e.container()).isEqualTo("node");
            assertThat(e.script())
                    .contains("kill -HUP -- -" + shell[0], "= " + shell[1] + " ]")
                    .doesNotContain("/run/");
        });
        assertThat(execs).noneSatisfy(e -> assertThat(e.script()).contains(".pid"));
    }

    @Test
    void shouldPublishEachClusterNodesKernelAsLabelsAndPlaceALessonOnANodeThatHasWhatItNeeds() throws Exception {
        var withCake = new MockCluster("worker-1", "worker-2");
        withCake.kernels.put("worker-2", Map.of("qdisc:tbf", true, "qdisc:htb", true, "qdisc:cake", true));
        TopologySource needsCake = new TopologySource() {
            @Override
            public Optional<dev.tclab.runtime.topology.Topology> topologyFor(String lesson) {
                return Optional.empty();
            }

            @Override
            public Set<String> kernelFeaturesFor(String lesson) {
                return Set.of("qdisc:cake");
            }
        };
        var runtime = runtimeOn(withCake, true, needsCake);

        KernelCapabilities kernel = runtime.probeKernel();

        assertThat(kernel.supports("qdisc:cake")).as("one node has it").isTrue();
        assertThat(kernel.supports("qdisc:tbf")).isTrue();
        assertThat(kernel.kernel()).isEqualTo("6.1.0-sim");
        assertThat(withCake.client
                        .nodes()
                        .withName("worker-1")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("tclab.dev/qdisc-cake", "false")
                .containsEntry("tclab.dev/qdisc-htb", "true");
        assertThat(withCake.client
                        .nodes()
                        .withName("worker-2")
                        .get()
                        .getMetadata()
                        .getLabels())
                .containsEntry("tclab.dev/qdisc-cake", "true");

        runtime.start(lab("lab1", "two-node"), (stage, detail) -> {});
        runtime.start(lab("lab2", "two-node"), (stage, detail) -> {});
        assertThat(podsOf("lab1")).extracting(p -> p.getSpec().getNodeName()).containsOnly("worker-2");
        assertThat(podsOf("lab2")).extracting(p -> p.getSpec().getNodeName()).containsOnly("worker-2");
    }

    @Test
    void shouldRefuseToStartWithoutAWiringHelperAndLeaveNoPodBehind() {
        var runtime = runtimeOn(new MockCluster("worker-1"), false, NO_REQUIREMENTS);

        assertThatThrownBy(() -> runtime.start(lab("lab1", "two-node"), (stage, detail) -> {}))
                .isInstanceOf(LabStartException.class)
                .hasMessageContaining("no running wiring helper (DaemonSet tclab-wiring) on cluster node worker-1")
                .hasMessageContaining("apply deploy/kubernetes");
        assertThat(podsOf("lab1")).isEmpty();
    }

    @Test
    void shouldSayTheApiServerIsUnreachableWhenItIs() {
        var config = TestConfig.tclab(Map.of());
        try (var client = new KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                        .withMasterUrl("http://127.0.0.1:9")
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build()) {
            var runtime = new KubernetesLabRuntime(client, config, NO_REQUIREMENTS);
            try {
                assertThat(runtime.engine().reachable()).isFalse();
                assertThat(runtime.engine().error()).isNotBlank();
                assertThatThrownBy(() -> runtime.start(lab("lab1", "two-node"), (stage, detail) -> {}))
                        .isInstanceOf(EngineUnavailableException.class)
                        .hasMessageStartingWith("cannot reach the Kubernetes API server at http://127.0.0.1:9/");
                assertThatThrownBy(() -> runtime.status("lab1")).isInstanceOf(EngineUnavailableException.class);
            } finally {
                runtime.close();
            }
        }
    }

    @Test
    void shouldReportTheApiServerVersionAsTheEngine() {
        var runtime = runtimeOn(new MockCluster("worker-1"), false, NO_REQUIREMENTS);

        var engine = runtime.engine();

        assertThat(engine.reachable()).isTrue();
        assertThat(engine.version()).startsWith("Kubernetes ");
    }
}
