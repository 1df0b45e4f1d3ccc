package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Docker runtime against the real engine: wiring, shaping, routing, isolation, hardening and cleanup. */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class DockerLabRuntimeIT {

    @Inject
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @ConfigProperty(name = "tclab.instance")
    String instance;

    private final List<String> started = new ArrayList<>();

    @AfterEach
    void stopLabs() throws EngineUnavailableException {
        for (String lab : started) {
            runtime.stop(lab);
        }
    }

    private String start(String topology) throws Exception {
        String id = "t" + UUID.randomUUID().toString().substring(0, 8);
        started.add(id);
        List<LabProgressListener.Stage> stages = new ArrayList<>();
        runtime.start(
                new LabSpec(id, TestTopologies.load(topology), "tester", topology),
                (stage, detail) -> stages.add(stage));
        assertEquals(List.of(LabProgressListener.Stage.values()), stages, "progress events in order");
        return id;
    }

    private ExecResult sh(String lab, String node, String script) throws Exception {
        return runtime.exec(lab, node, List.of("sh", "-c", script), Duration.ofSeconds(30));
    }

    /** Runs a script in the learner's node itself (its files and processes), not where the platform measures. */
    private ExecResult inNode(String lab, String node, String script) {
        return DockerExec.run(
                docker, NodeContainers.name(lab, node), List.of("sh", "-c", script), Duration.ofSeconds(30));
    }

    /** iperf3's receiver-side goodput in Mbit/s, with cubic pinned (the host default may be BBR). */
    private double iperf3Mbps(String lab, String server) throws Exception {
        ExecResult run = sh(lab, "client", "iperf3 -c " + server + " -C cubic -t 3 -J");
        assertTrue(run.ok(), run.stderr());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.stdout());
        return json.at("/end/sum_received/bits_per_second").asDouble() / 1e6;
    }

    /** A lab left by another instance's process that died: labelled as the runtime labels, but past its expiry. */
    private String ghostLab() {
        String ghost = "t" + UUID.randomUUID().toString().substring(0, 8);
        String ghostContainer = docker.createContainerCmd("tclab/lab-node:1")
                .withCmd("sleep", "600")
                .withLabels(Map.of(
                        LabelKeys.APP,
                        "tclab",
                        LabelKeys.INSTANCE,
                        "tclab-gone",
                        LabelKeys.ROLE,
                        LabelKeys.ROLE_NODE,
                        LabelKeys.LAB,
                        ghost,
                        LabelKeys.EXPIRES,
                        Long.toString(Instant.now().minusSeconds(60).getEpochSecond())))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig()
                        .withNetworkMode("none"))
                .exec()
                .getId();
        docker.startContainerCmd(ghostContainer).exec();
        // Its measurement sidecar, left behind as well.
        docker.createContainerCmd("tclab/lab-node:1")
                .withCmd("sleep", "600")
                .withLabels(Map.of(
                        LabelKeys.APP,
                        "tclab",
                        LabelKeys.INSTANCE,
                        "tclab-gone",
                        LabelKeys.ROLE,
                        Labels.ROLE_SIDECAR,
                        LabelKeys.LAB,
                        ghost,
                        LabelKeys.EXPIRES,
                        Long.toString(Instant.now().minusSeconds(60).getEpochSecond())))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig()
                        .withNetworkMode("none"))
                .exec();
        return ghost;
    }

    private List<Container> containersOf(String lab) {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(LabelKeys.LAB, lab))
                .exec();
    }

    @Test
    void shouldRemoveOnlyExpiredLabsOfAnyInstance() throws Exception {
        String fresh = start("two-node");
        String ghost = ghostLab();
        // A kernel probe left by an app killed while it ran: labelled as runThrowaway labels it, expired.
        String probe = docker.createContainerCmd("tclab/lab-node:1")
                .withCmd("sleep", "600")
                .withLabels(Labels.throwaway(
                        "tclab-gone", Labels.ROLE_PROBE, Instant.now().minusSeconds(60)))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig()
                        .withNetworkMode("none"))
                .exec()
                .getId();
        assertThat(runtime.removeExpiredLabs(Instant.now()))
                .contains(ghost)
                .doesNotContain(fresh)
                .doesNotContainNull();
        assertThat(containersOf(ghost)).isEmpty();
        assertThat(docker.listContainersCmd()
                        .withShowAll(true)
                        .withIdFilter(List.of(probe))
                        .exec())
                .as("the expired probe is reaped")
                .isEmpty();
        assertTrue(sh(fresh, "client", "ping -c 1 -W 2 10.0.0.2").ok(), "the fresh lab is untouched");
        String expires = docker.listContainersCmd()
                .withLabelFilter(Map.of(LabelKeys.LAB, fresh))
                .exec()
                .get(0)
                .getLabels()
                .get(LabelKeys.EXPIRES);
        assertThat(Instant.ofEpochSecond(Long.parseLong(expires)))
                .as("max lifetime (4 h) and grace")
                .isBetween(
                        Instant.now().plus(Duration.ofHours(4)),
                        Instant.now().plus(Duration.ofHours(4).plusMinutes(11)));
    }

    /**
     * The app's own reaper runs beside any other remover (another replica, an operator's sweep): a second removal
     * of the same container is refused at once as "in progress", and must still not return while it exists.
     */
    @Test
    void shouldReturnFromRemovalOnlyOnceTheLabIsGoneEvenWhileAnotherRemoverIsAtIt() throws Exception {
        for (int round = 0; round < 3; round++) {
            String ghost = ghostLab();
            ExecutorService removers = Executors.newFixedThreadPool(3);
            try {
                List<Future<List<Container>>> leftAfter = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    leftAfter.add(removers.submit(() -> {
                        runtime.removeExpiredLabs(Instant.now());
                        return containersOf(ghost);
                    }));
                }
                for (var left : leftAfter) {
                    assertThat(left.get(60, TimeUnit.SECONDS))
                            .as("left when a removal returned")
                            .isEmpty();
                }
            } finally {
                removers.shutdownNow();
            }
        }
    }

    @Test
    void shouldShapeTwoNodeLinkWithTbfAndLeaveNothingBehindWhenStopped() throws Exception {
        String lab = start("two-node");
        assertTrue(sh(lab, "client", "ping -c 2 -W 2 10.0.0.2").ok(), "ping crosses the veth link");
        double unshaped = iperf3Mbps(lab, "10.0.0.2");

        assertTrue(sh(lab, "client", "tc qdisc add dev eth1 root tbf rate 10mbit burst 32kb latency 100ms")
                .ok());
        double shaped = iperf3Mbps(lab, "10.0.0.2");

        assertThat(unshaped).as("unshaped veth goodput, Mbit/s").isGreaterThan(200);
        assertThat(shaped).as("goodput under tbf 10mbit, Mbit/s").isBetween(8.5, 11.5);

        runtime.stop(lab);
        assertThat(containersOf(lab)).isEmpty();
        assertThat(runtime.labsOnEngine()).doesNotContain(lab);
        runtime.stop(lab); // idempotent
    }

    @Test
    void shouldRouteClientToServerThroughTwoRouters() throws Exception {
        String lab = start("four-node");
        ExecResult trace = sh(lab, "client", "ping -c 2 -W 2 198.51.100.10 && ip route get 198.51.100.10");
        assertTrue(trace.ok(), trace.stdout() + trace.stderr());
        assertThat(trace.stdout()).contains("via 192.168.1.1 dev eth1");
        ExecResult hops = sh(lab, "server", "ping -c 1 -W 2 -t 62 192.168.1.2 | grep -o 'ttl=[0-9]*'");
        assertThat(hops.stdout().trim())
                .as("two routers decrement the TTL twice")
                .isEqualTo("ttl=62");
    }

    @Test
    void shouldIsolateTwoLabsWithIdenticalAddresses() throws Exception {
        String first = start("two-node");
        String second = start("two-node");
        assertTrue(sh(first, "client", "ping -c 1 -W 2 10.0.0.2").ok());
        assertTrue(sh(second, "client", "ping -c 1 -W 2 10.0.0.2").ok());

        assertTrue(sh(second, "server", "ip link set eth1 down").ok());

        assertTrue(sh(first, "client", "ping -c 1 -W 2 10.0.0.2").ok(), "the first lab's server still answers");
        assertNotEquals(
                0,
                sh(second, "client", "ping -c 1 -W 1 10.0.0.2").exitCode(),
                "the second lab's client only ever reached its own server");
    }

    @Test
    void shouldHardenNodesAndGiveThemNoRouteOut() throws Exception {
        String lab = start("two-node");
        ExecResult routes = sh(lab, "client", "ip route");
        assertThat(routes.stdout().trim()).isEqualTo("10.0.0.0/24 dev eth1 proto kernel scope link src 10.0.0.1");
        ExecResult out = sh(lab, "client", "ping -c 1 -W 1 192.0.2.1");
        assertThat(out.stderr()).contains("Network is unreachable");

        List<Container> nodes = containersOf(lab).stream()
                .filter(c -> LabelKeys.ROLE_NODE.equals(c.getLabels().get(LabelKeys.ROLE)))
                .toList();
        assertThat(nodes).hasSize(2);
        for (Container c : nodes) {
            InspectContainerResponse inspect =
                    docker.inspectContainerCmd(c.getId()).exec();
            var host = inspect.getHostConfig();
            assertEquals("none", host.getNetworkMode());
            assertThat(host.getPrivileged()).isFalse();
            assertThat(List.of(host.getCapAdd()))
                    .extracting(Enum::name)
                    .containsExactlyInAnyOrder("NET_ADMIN", "NET_RAW");
            assertThat(List.of(host.getCapDrop())).extracting(Enum::name).containsExactly("ALL");
            assertThat(host.getSecurityOpts()).contains("no-new-privileges");
            assertThat(host.getMemory()).isEqualTo(256L * 1024 * 1024);
            assertThat(host.getPidsLimit()).isEqualTo(256L);
            assertThat(c.getLabels())
                    .containsEntry("tclab.app", "tclab")
                    .containsEntry("tclab.instance", instance)
                    .containsEntry("tclab.lab", lab)
                    .containsEntry("tclab.owner", "tester")
                    .containsEntry("tclab.lesson", "two-node")
                    .containsKey("tclab.node");
        }
        ExecResult mount = inNode(lab, "client", "mount -t tmpfs none /mnt");
        assertNotEquals(0, mount.exitCode(), "no CAP_SYS_ADMIN in a lab node");
    }

    @Test
    void shouldReportSetupFailureAndRemoveThePartialLab() throws Exception {
        String id = "t" + UUID.randomUUID().toString().substring(0, 8);
        var bad = TestTopologies.load("two-node");
        var client = bad.nodes().get("client");
        var broken = new dev.tclab.runtime.topology.Topology(
                bad.name(),
                new java.util.LinkedHashMap<>(Map.of(
                        "client",
                        new dev.tclab.runtime.topology.Topology.Node(
                                "client",
                                null,
                                false,
                                Map.of(),
                                Map.of(),
                                List.of("ip addr add 10.0.0.1/24 dev eth9"),
                                List.of()),
                        "server",
                        bad.nodes().get("server"))),
                bad.links());
        var error = org.junit.jupiter.api.Assertions.assertThrows(
                dev.tclab.runtime.LabStartException.class,
                () -> runtime.start(new LabSpec(id, broken, "tester", "broken"), (s, d) -> {}));
        assertThat(error.getMessage()).contains("client").contains("ip addr add 10.0.0.1/24 dev eth9");
        assertThat(containersOf(id)).isEmpty();
        assertThat(client).isNotNull();
    }

    @Test
    void shouldRunTheSetupInTheNodeItselfAndThenLeaveItsInputClosed() throws Exception {
        String id = "t" + UUID.randomUUID().toString().substring(0, 8);
        started.add(id);
        var two = TestTopologies.load("two-node");
        var client = two.nodes().get("client");
        List<String> setup = new ArrayList<>(client.exec());
        // Output on both streams without a final newline, and a file in the node's own filesystem.
        setup.addAll(List.of("printf 'no newline'", "printf 'nor here' >&2", "echo ran > /tmp/setup-ran"));
        var withSetup = new dev.tclab.runtime.topology.Topology(
                two.name(),
                new java.util.LinkedHashMap<>(Map.of(
                        "client",
                        new dev.tclab.runtime.topology.Topology.Node(
                                "client", null, false, Map.of(), Map.of(), setup, List.of()),
                        "server",
                        two.nodes().get("server"))),
                two.links());
        runtime.start(new LabSpec(id, withSetup, "tester", "setup"), (s, d) -> {});

        assertEquals("ran\n", inNode(id, "client", "cat /tmp/setup-ran").stdout());
        assertTrue(sh(id, "client", "ping -c 1 -W 5 10.0.0.2").ok(), "the setup's addresses are up");
        // The node's main process is what it always was once its setup ran, and nothing can feed it any more.
        ExecResult main = inNode(id, "client", "ps -o args= -p $(cat /proc/1/task/1/children)");
        assertEquals("sleep infinity", main.stdout().trim(), main.stderr());
        ExecResult input = inNode(id, "client", "timeout 3 cat /proc/1/fd/0; echo \"exit $?\"");
        assertEquals("exit 0", input.stdout().trim(), "the node's standard input is at its end: " + input);
    }

    @Test
    void shouldProbeTheKernelFeaturesOfTheDockerHost() throws Exception {
        KernelCapabilities kernel = runtime.probeKernel();
        assertThat(kernel.supports("qdisc:tbf")).isTrue();
        assertThat(kernel.supports("qdisc:htb")).isTrue();
        assertThat(kernel.supports("qdisc:ingress")).isTrue();
        assertThat(kernel.supports("link:veth")).isTrue();
        assertThat(kernel.supports("classifier:u32")).isTrue();
        assertThat(kernel.features())
                .containsKeys(
                        "qdisc:cake", "qdisc:sfq", "qdisc:netem", "classifier:matchall", "link:ifb", "action:mirred");
        assertThat(kernel.kernel()).isNotBlank().isNotEqualTo("unknown");
    }

    @Test
    void shouldStreamATerminalWithTtyAndKillItOnClose() throws Exception {
        String lab = start("two-node");
        StringBuffer out = new StringBuffer();
        var closed = new java.util.concurrent.CompletableFuture<String>();
        var shell = runtime.shell(lab, "client", List.of("bash", "-i"), new dev.tclab.runtime.StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                out.append(new String(chunk, java.nio.charset.StandardCharsets.UTF_8));
            }

            @Override
            public void onClosed(String reason) {
                closed.complete(reason);
            }
        });
        shell.resize(100, 30);
        shell.write("stty size; echo marker-$((6*7))\n".getBytes());
        awaitContains(out, "marker-42");
        assertThat(out.toString()).contains("30 100").contains("root@client");
        assertThat(inNode(lab, "client", "ps -eo args").stdout())
                .as("the shell runs in the node itself")
                .contains("bash -i");
        shell.close();
        closed.get(5, java.util.concurrent.TimeUnit.SECONDS);
        awaitTrue(() -> !inNode(lab, "client", "ps -eo args").stdout().contains("bash -i"));
    }

    private static void awaitContains(StringBuffer out, String text) throws InterruptedException {
        for (int i = 0; i < 100 && !out.toString().contains(text); i++) {
            Thread.sleep(50);
        }
        assertThat(out.toString()).contains(text);
    }

    private interface Probe {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Probe probe) throws Exception {
        for (int i = 0; i < 50; i++) {
            if (probe.holds()) {
                return;
            }
            Thread.sleep(100);
        }
        assertTrue(probe.holds());
    }
}
