package dev.tclab.runtime.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabStartException;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeNotFoundException;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.StreamListener;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * User-Mode Linux labs on the fabric8 mock API server: one pod per lab, no wiring helper and no exec, the lab built and
 * used through the agent on the kernel's console over {@code pods/attach} (a simulated agent answers there, speaking
 * the real agent's framing and reading lab.pl's arguments as lab.pl does: see {@link MockCluster}). What the mock cannot show: a real kubelet running the UML kernel
 * under the pod's security context, and a real console's 4 KiB input buffer (the simulated agent acknowledges every
 * read at once).
 */
class KubernetesUmlLabRuntimeTest {

    private static final String NAMESPACE = "tclab-labs";

    private final List<KubernetesUmlLabRuntime> runtimes = new ArrayList<>();
    private MockCluster cluster;

    private KubernetesUmlLabRuntime runtimeOn(MockCluster cluster, Map<String, String> settings) {
        this.cluster = cluster;
        KubernetesUmlLabRuntime runtime = new KubernetesUmlLabRuntime(cluster.client, TestConfig.tclab(settings));
        runtimes.add(runtime);
        return runtime;
    }

    @AfterEach
    void close() {
        runtimes.forEach(KubernetesUmlLabRuntime::close);
        if (cluster != null) {
            cluster.close();
        }
    }

    private static LabSpec lab(String id) {
        return new LabSpec(id, TestTopologies.load("two-node"), "learner", "two-node");
    }

    private List<Pod> podsOf(String labId) {
        return cluster.client
                .pods()
                .inNamespace(NAMESPACE)
                .withLabel(LabelKeys.LAB, labId)
                .list()
                .getItems();
    }

    private List<MockCluster.AgentRequest> requests(String kind) {
        return cluster.agentRequests.stream().filter(r -> r.kind().equals(kind)).toList();
    }

    @Test
    void shouldStartALabAsOnePodAndBuildItThroughTheAgentWithNoHelperAndNoExec() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());

        runtime.start(lab("uml1"), (stage, detail) -> {});

        assertThat(podsOf("uml1")).singleElement().satisfies(pod -> {
            assertThat(pod.getMetadata().getName()).isEqualTo("tclab-uml1.uml");
            assertThat(pod.getMetadata().getLabels()).containsEntry("tclab.role", "uml");
            assertThat(PodSecurityBaseline.violations(pod)).isEmpty();
        });
        assertThat(cluster.attaches).containsExactly("tclab-uml1.uml/kernel");
        assertThat(cluster.attachStreams.get(0))
                .as("the console is the container's standard input and output, no terminal")
                .containsEntry("stdin", "true")
                .containsEntry("stdout", "true")
                .doesNotContainEntry("tty", "true");
        assertThat(cluster.execs)
                .as("no exec: neither a wiring helper nor a sidecar")
                .isEmpty();
        assertThat(requests("P")).hasSize(1);
        assertThat(requests("R")).as("no program started to build the lab").isEmpty();
        assertThat(requests("E"))
                .as("lab.pl: every node, link and sysctl in one request, every node's setup in one more")
                .extracting(r -> r.argv().get(0))
                .containsExactly("wire", "setup");
        assertThat(requests("E").get(0).argv())
                .containsSubsequence("node=client", "node=server", "link=eth1,client,eth1,server");
        assertThat(requests("E").get(1).argv())
                .containsSubsequence("node=client", "node=server")
                .anyMatch(arg -> arg.startsWith("script=") && arg.contains("ip addr add 10.0.0.2/24 dev eth1"));
        assertThat(cluster.client
                        .network()
                        .v1()
                        .networkPolicies()
                        .inNamespace(NAMESPACE)
                        .withName(LabObjects.NETWORK_POLICY)
                        .get())
                .as("the isolation policy covers UML pods too")
                .isNotNull();
    }

    @Test
    void shouldRunChecksInTheNodesNetworkAndTerminalsAsItsLearnerThroughTheAgent() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());
        runtime.start(lab("uml1"), (stage, detail) -> {});
        cluster.agentRequests.clear();

        var result = runtime.exec("uml1", "client", List.of("echo", "measured"), Duration.ofSeconds(5));
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        CompletableFuture<String> closed = new CompletableFuture<>();
        var shell = runtime.shell("uml1", "server", List.of("bash", "-i"), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                synchronized (seen) {
                    seen.writeBytes(chunk);
                }
            }

            @Override
            public void onClosed(String reason) {
                closed.complete(reason);
            }
        });
        shell.write("tc qdisc show\n".getBytes(StandardCharsets.UTF_8));
        waitFor(() -> seenText(seen).contains("tc qdisc show"));
        shell.close();
        waitFor(() -> !requests("C").isEmpty());

        assertThat(result.ok()).isTrue();
        assertThat(result.stdout()).isEqualTo("measured\n");
        assertThat(requests("R"))
                .singleElement()
                .satisfies(r -> assertThat(r.argv())
                        .containsSubsequence(
                                "timeout", "nsenter", "--net=/run/netns/client", "--", "echo", "measured"));
        assertThat(seenText(seen))
                .as("the terminal's input came back through the agent")
                .isEqualTo("tc qdisc show\n");
        assertThat(requests("U"))
                .as("the terminal is the agent's own fork entering the node by lab.pl")
                .singleElement()
                .satisfies(r -> assertThat(r.argv()).containsSubsequence("enter", "server", "bash", "-i"));
        assertThat(requests("C")).hasSize(1);
        assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo("closed");
        assertThat(cluster.execs).isEmpty();
        assertThat(cluster.attaches).as("one attachment carries everything").hasSize(1);
    }

    /** Waits up to 10 s for what the agent's answers make true on their own thread. */
    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    private static String seenText(ByteArrayOutputStream seen) {
        synchronized (seen) {
            return seen.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void shouldReportEveryNodeOfARunningKernelAndForgetAStoppedLab() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());
        runtime.start(lab("uml1"), (stage, detail) -> {});

        assertThat(runtime.status("uml1"))
                .extracting(NodeStatus::node, NodeStatus::running)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("client", true),
                        org.assertj.core.groups.Tuple.tuple("server", true));
        assertThat(runtime.labsOnEngine()).containsExactly("uml1");
        assertThatThrownBy(() -> runtime.exec("uml1", "router", List.of("true"), Duration.ofSeconds(5)))
                .isInstanceOf(NodeNotFoundException.class);

        runtime.stop("uml1");
        runtime.stop("uml1");

        assertThat(podsOf("uml1")).isEmpty();
        assertThat(runtime.status("uml1")).isEmpty();
        assertThat(runtime.labsOnEngine()).isEmpty();
        assertThatThrownBy(() -> runtime.exec("uml1", "client", List.of("true"), Duration.ofSeconds(5)))
                .isInstanceOf(NodeNotFoundException.class);
    }

    @Test
    void shouldAdoptALabAfterARestartByAttachingToItsKernelAgain() throws Exception {
        var before = runtimeOn(new MockCluster("worker-1"), Map.of());
        before.start(lab("uml1"), (stage, detail) -> {});
        before.close();

        var after = new KubernetesUmlLabRuntime(cluster.client, TestConfig.tclab(Map.of()));
        runtimes.add(after);

        assertThat(after.labsOnEngine()).containsExactly("uml1");
        assertThat(after.exec("uml1", "server", List.of("echo", "adopted"), Duration.ofSeconds(5))
                        .stdout())
                .isEqualTo("adopted\n");
        assertThat(cluster.attaches).containsExactly("tclab-uml1.uml/kernel", "tclab-uml1.uml/kernel");
        assertThat(requests("P"))
                .as("the new attachment asked the agent whether it is ready")
                .hasSize(2);
    }

    @Test
    void shouldAttachAgainOnceTheAttachmentBroke() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());
        runtime.start(lab("uml1"), (stage, detail) -> {});

        cluster.hangUpConsoles();
        waitFor(() -> cluster.attaches.size() == 2 || answers(runtime));

        assertThat(runtime.exec("uml1", "client", List.of("echo", "again"), Duration.ofSeconds(5))
                        .stdout())
                .isEqualTo("again\n");
        assertThat(cluster.attaches).containsExactly("tclab-uml1.uml/kernel", "tclab-uml1.uml/kernel");
    }

    /** Whether an exec answers now; false while the runtime still holds the attachment that broke. */
    private static boolean answers(KubernetesUmlLabRuntime runtime) {
        try {
            return runtime.exec("uml1", "client", List.of("true"), Duration.ofSeconds(5))
                    .ok();
        } catch (dev.tclab.runtime.EngineUnavailableException | NodeNotFoundException e) {
            return false;
        }
    }

    @Test
    void shouldReapOnlyExpiredUmlPodsOfAnyInstanceAndLeaveOtherLabsAlone() throws Exception {
        var cluster = new MockCluster("worker-1");
        var other = runtimeOn(cluster, Map.of("tclab.instance", "tclab-other"));
        other.start(lab("old1"), (stage, detail) -> {});
        var runtime = runtimeOn(cluster, Map.of());
        runtime.start(lab("uml1"), (stage, detail) -> {});

        assertThat(runtime.removeExpiredLabs(Instant.now())).isEmpty();
        assertThat(runtime.labsOnEngine()).as("this instance's labs only").containsExactly("uml1");

        assertThat(runtime.removeExpiredLabs(Instant.now().plus(Duration.ofHours(5))))
                .containsExactlyInAnyOrder("uml1", "old1");
        assertThat(podsOf("uml1")).isEmpty();
        assertThat(podsOf("old1")).isEmpty();
    }

    @Test
    void shouldFailAStartWhoseKernelNeverAnswersAndLeaveNoPodBehind() {
        var cluster = new MockCluster("worker-1");
        cluster.agentsAnswer = false;
        var runtime = runtimeOn(cluster, Map.of("tclab.lab.start-timeout", "2s"));

        assertThatThrownBy(() -> runtime.start(lab("uml1"), (stage, detail) -> {}))
                .isInstanceOf(LabStartException.class)
                .hasMessageStartingWith("the lab's kernel did not come up: it did not answer within");
        assertThat(podsOf("uml1")).isEmpty();
    }

    @Test
    void shouldFailAStartWithWhatLabPlSaidAndLeaveNoPodBehind() {
        var cluster = new MockCluster("worker-1");
        cluster.labFails = "link client:eth1 - server:eth1: File exists";
        var runtime = runtimeOn(cluster, Map.of());

        assertThatThrownBy(() -> runtime.start(lab("uml1"), (stage, detail) -> {}))
                .isInstanceOf(LabStartException.class)
                .hasMessage("starting the nodes failed: link client:eth1 - server:eth1: File exists");
        assertThat(podsOf("uml1")).isEmpty();
        assertThat(requests("E")).as("no setup after a failed wiring").hasSize(1);
    }

    @Test
    void shouldProbeTheLabsKernelInAPodOfItsOwnAndRemoveIt() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());

        var kernel = runtime.probeKernel();

        assertThat(kernel.supports("qdisc:cake")).isTrue();
        assertThat(kernel.supports("qdisc:netem")).isTrue();
        assertThat(kernel.kernel()).isEqualTo("6.1.176 (uml sim)");
        assertThat(cluster.attaches).singleElement().asString().startsWith("tclab-probe");
        assertThat(cluster.client.pods().inNamespace(NAMESPACE).list().getItems())
                .isEmpty();
        assertThat(runtime.probeKernel()).as("probed once").isSameAs(kernel);
        assertThat(cluster.attaches).hasSize(1);
    }

    @Test
    void shouldLeaveUmlLabsOutOfTheHostKernelRuntimesLabsAndReaping() throws Exception {
        var runtime = runtimeOn(new MockCluster("worker-1"), Map.of());
        runtime.start(lab("uml1"), (stage, detail) -> {});
        var host = new KubernetesLabRuntime(
                cluster.client, TestConfig.tclab(Map.of()), lesson -> java.util.Optional.empty());
        try {
            assertThat(host.labsOnEngine()).isEmpty();
            assertThat(host.removeExpiredLabs(Instant.now().plus(Duration.ofHours(5))))
                    .isEmpty();
            assertThat(podsOf("uml1")).hasSize(1);
        } finally {
            host.close();
        }
    }
}
