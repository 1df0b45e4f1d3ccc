package dev.tclab.grading.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Measure;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.tc.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A learner who replaced tc, iperf3, ping and timeout in their node by scripts that print what the check wants
 * (first in the node's PATH, as a node image that lets them write there would allow) cannot forge a grade: the check
 * measures with the platform's own tools, so it still fails on a bare link and passes only on a real shaper.
 */
@QuarkusTest
// No @RunsAlone: its one measured flow goes through a tbf of 10 Mbit/s, capped by the platform at twice what passes
// (far under what a core carries), and its ping under load is held to a lower bound that load only raises.
class TrustedMeasurementIT {

    /** The lesson tbf-basics's step "shape", with a ping under load. */
    private static final String SHAPED_TO_10 = """
            measure:
              - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
              - { name: lat, node: client, ping: { target: 10.0.0.2, count: 5, interval: 0.2 }, during: up }
              - { name: q, node: client, qdisc: { dev: eth1 } }
            expect:
              - { value: q.root.kind, equals: tbf }
              - { value: q.root.options.rate, equals: 10mbit }
              - { value: up.mbps, near: 10mbit, within: 12% }
            """;
    /** A handle no real qdisc in these labs gets (the kernel numbers from 8001:), so a lie is recognisable. */
    private static final String LIE_HANDLE = "4242:";

    @Inject
    LabRuntime runtime;

    @Inject
    CheckRunner runner;

    @Inject
    DockerClient docker;

    private String lab;
    private String liarImage;

    @AfterEach
    void cleanUp() throws Exception {
        if (lab != null) {
            runtime.stop(lab);
        }
        if (liarImage != null) {
            try {
                docker.removeImageCmd(liarImage).withForce(true).exec();
            } catch (NotFoundException e) {
                // Never built.
            }
        }
    }

    @Test
    void shouldFailOnABareLinkAndPassOnARealShaperWhateverTheNodesToolsSay() throws Exception {
        liarImage = buildLiarImage();
        lab = "l" + UUID.randomUUID().toString().substring(0, 8);
        Topology plain = TestTopologies.load("two-node");
        Map<String, Topology.Node> liars = new LinkedHashMap<>();
        plain.nodes()
                .forEach((name, n) -> liars.put(
                        name,
                        new Topology.Node(name, liarImage, n.hidden(), n.env(), n.sysctls(), n.exec(), n.stats())));
        runtime.start(
                new LabSpec(lab, new Topology(plain.name(), liars, plain.links()), "tester", "two-node"),
                (stage, detail) -> {});

        // The lies are live in the node: what the learner (and formerly the grader) runs there says "shaped".
        assertThat(inNode("tc -s -j qdisc show dev eth1")).contains(LIE_HANDLE);
        assertThat(inNode("iperf3 -c 10.0.0.2 -J")).contains("\"sum_received\"");
        assertThat(inNode("timeout 5 tc qdisc show")).contains(LIE_HANDLE);

        CheckSpec spec = CheckSpecParser.parse("it.md", SHAPED_TO_10, 1);
        CheckResult bare = runner.run(lab, "shape", spec, BaselineSteps.UNKNOWN, p -> {});
        assertEquals(CheckResult.Status.FAILED, bare.status(), bare.message());
        assertThat(bare.assertions().get(0).measured()).isEqualTo("noqueue");
        // The platform's own tc read no shaper, so the load was not even run (a lying tc would have let it run).
        assertThat(bare.message()).endsWith("(throughput and latency not measured until this holds)");
        assertThat(bare.raw().get("q")).doesNotContain(LIE_HANDLE);

        // The learner's own tc "succeeds" and changes nothing; the real one, by its full path, shapes the link.
        assertThat(inNode("tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms; echo rc=$?"))
                .contains("rc=0");
        assertEquals(
                "FAILED",
                runner.run(lab, "shape", spec, BaselineSteps.UNKNOWN, p -> {})
                        .status()
                        .name(),
                "a lying tc shapes nothing");
        assertThat(inNode("/usr/sbin/tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms"
                        + " && echo shaped"))
                .contains("shaped");

        CheckResult shaped = runner.run(lab, "shape", spec, BaselineSteps.UNKNOWN, p -> {});
        assertEquals(CheckResult.Status.PASSED, shaped.status(), shaped.message() + " " + shaped.assertions());
        assertThat(shaped.assertions().get(2).number())
                .as("goodput through the real tbf, Mbit/s")
                .isBetween(8.5, 11.5);
        assertThat(shaped.raw().get("q")).doesNotContain(LIE_HANDLE).contains("\"kind\":\"tbf\"");
        assertThat(shaped.raw().get("up"))
                .as("the measurement's own server on a port of its own")
                .doesNotContain(Fixtures.read("iperf3/iperf3-tcp-tbf10.json").substring(0, 200));
        Measure avg = (Measure) ((Map<?, ?>) shaped.measured().get("lat")).get("avg_ms");
        assertThat(avg.value())
                .as("ms of ping under load through the tbf's queue, not the lie's 0.074 ms")
                .isGreaterThan(2.0);
    }

    /** The lab image with lying tc, iperf3, ping and timeout first in PATH (/usr/local/sbin). */
    private String buildLiarImage() throws Exception {
        String lie = Fixtures.read("tc/qdisc-tbf-loaded.json").replace("\"8002:\"", "\"" + LIE_HANDLE + "\"");
        String script = "mkdir -p /opt/lies\n"
                + "cat > /opt/lies/qdisc.json <<'END'\n" + lie.trim() + "\nEND\n"
                + "cat > /opt/lies/iperf3.json <<'END'\n"
                + Fixtures.read("iperf3/iperf3-tcp-tbf10.json").trim() + "\nEND\n"
                + "cat > /opt/lies/ping.txt <<'END'\n"
                + Fixtures.read("ping/ping-iputils.txt").trim() + "\nEND\n"
                + "printf '#!/bin/sh\\ncase \"$*\" in *show*) cat /opt/lies/qdisc.json;; esac\\nexit 0\\n' > /usr/local/sbin/tc\n"
                + "printf '#!/bin/sh\\ncat /opt/lies/iperf3.json\\n' > /usr/local/sbin/iperf3\n"
                + "printf '#!/bin/sh\\ncat /opt/lies/ping.txt\\n' > /usr/local/sbin/ping\n"
                + "printf '#!/bin/sh\\nwhile [ $# -gt 0 ]; do case $1 in -k|-s) shift 2;; -*) shift;; *) shift; break;; esac;"
                + " done\\nexec \"$@\"\\n' > /usr/local/sbin/timeout\n"
                + "chmod +x /usr/local/sbin/tc /usr/local/sbin/iperf3 /usr/local/sbin/ping /usr/local/sbin/timeout\n";
        String builder = docker.createContainerCmd("tclab/lab-node:1")
                .withCmd("sh", "-c", script)
                .withLabels(Map.of("tclab.app", "tclab-test-build"))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                .exec()
                .getId();
        try {
            docker.startContainerCmd(builder).exec();
            int exit = docker.waitContainerCmd(builder).start().awaitStatusCode(60, TimeUnit.SECONDS);
            assertEquals(0, exit, "writing the lying scripts");
            String tag = "liar-" + UUID.randomUUID().toString().substring(0, 8);
            docker.commitCmd(builder)
                    .withRepository("tclab-test/liar")
                    .withTag(tag)
                    .withCmd("sleep", "infinity")
                    .exec();
            return "tclab-test/liar:" + tag;
        } finally {
            docker.removeContainerCmd(builder).withForce(true).exec();
        }
    }

    /** Runs a script in the client node itself, with the node's own (lying) tools, and returns stdout and stderr. */
    private String inNode(String script) throws Exception {
        String container = "tclab-" + lab + "-client";
        String exec = docker.execCreateCmd(container)
                .withCmd("sh", "-c", script)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        StringBuilder out = new StringBuilder();
        docker.execStartCmd(exec)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        synchronized (out) {
                            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        synchronized (out) {
            assertTrue(out.length() > 0, "no output from: " + script);
            return out.toString();
        }
    }
}
