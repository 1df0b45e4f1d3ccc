package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.agent.SidecarAgent;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lab's platform commands run through its sidecars' agents, not one Docker exec each, with the bounds of an exec:
 * exit codes and both streams as they were, output cut at 1 MiB, timeout(1) and the app's deadline, commands at once.
 */
@QuarkusTest
class SidecarAgentIT {

    @Inject
    LabRuntime runtime;

    @Inject
    DockerClient docker;

    private String lab;

    @BeforeEach
    void startLab() throws Exception {
        lab = "a" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
    }

    @AfterEach
    void stopLab() throws Exception {
        runtime.stop(lab);
    }

    @Test
    void shouldRunCommandsInTheAgentWithoutAnExec() throws Exception {
        // timeout(1) runs the command; its parent is the agent, the sidecar's main process (an exec's has none).
        ExecResult parent = runtime.exec(
                lab,
                "client",
                List.of("sh", "-c", "cat /proc/$(ps -o ppid= -p $PPID | tr -d ' ')/cmdline | tr '\\0' ' '"),
                Duration.ofSeconds(5));
        assertTrue(parent.ok(), parent.toString());
        assertThat(parent.stdout()).startsWith("perl -e");
    }

    /**
     * A sidecar that another build made (its agent labelled with another version, which may not answer as this build
     * asks: a lab adopted across an upgrade) gets its commands by exec; the lab keeps being graded.
     */
    @Test
    void shouldRunCommandsByExecInASidecarOfAnotherVersion() throws Exception {
        String name = NodeContainers.sidecarName(lab, "client");
        InspectContainerResponse made = docker.inspectContainerCmd(name).exec();
        Map<String, String> labels = new HashMap<>(made.getConfig().getLabels());
        assertThat(labels).containsEntry(Labels.AGENT, SidecarAgent.version());
        labels.put(Labels.AGENT, "1");
        docker.removeContainerCmd(made.getId()).withForce(true).exec();
        String older = docker.createContainerCmd(made.getConfig().getImage())
                .withName(name)
                .withLabels(labels)
                .withCmd(SidecarAgent.command())
                .withStdinOpen(true)
                .withHostConfig(made.getHostConfig())
                .exec()
                .getId();
        docker.startContainerCmd(older).exec();

        // timeout(1) runs the command; an exec's timeout has no parent in the sidecar (the agent's is the agent).
        ExecResult parent = runtime.exec(
                lab, "client", List.of("sh", "-c", "ps -o ppid= -p $PPID | tr -d ' '"), Duration.ofSeconds(10));
        assertTrue(parent.ok(), parent.toString());
        assertThat(parent.stdout()).as("run by exec").isEqualTo("0\n");
        assertThat(runtime.exec(lab, "client", List.of("tc", "qdisc", "show", "dev", "eth1"), Duration.ofSeconds(10))
                        .stdout())
                .startsWith("qdisc noqueue");
    }

    @Test
    void shouldKeepExitCodesAndBothStreamsApart() throws Exception {
        ExecResult result = runtime.exec(
                lab,
                "server",
                List.of("sh", "-c", "printf 'out\\nput'; printf 'é\\n' >&2; exit 3"),
                Duration.ofSeconds(5));
        assertEquals(new ExecResult(3, "out\nput", "é\n", false, false), result);
        ExecResult missing = runtime.exec(lab, "server", List.of("no-such-command"), Duration.ofSeconds(5));
        assertEquals(127, missing.exitCode());
        ExecResult odd = runtime.exec(
                lab, "server", List.of("printf", "%s|", "a b", "@@tclab-agent x 0 0 1 1", "\n"), Duration.ofSeconds(5));
        assertEquals(
                "a b|@@tclab-agent x 0 0 1 1|\n|", odd.stdout(), "arguments arrive as given, output is not framing");
    }

    @Test
    void shouldKeepTheFirstMibOfAFlood() throws Exception {
        ExecResult flood = runtime.exec(
                lab,
                "client",
                List.of("sh", "-c", "head -c 50000000 /dev/zero | tr '\\0' x; echo done >&2"),
                Duration.ofSeconds(60));
        assertTrue(flood.ok(), "the command ran to its end: " + flood.exitCode());
        assertTrue(flood.truncated(), "flagged as cut");
        assertThat(flood.stdout().length()).isEqualTo(DockerExec.MAX_CAPTURE_BYTES);
        assertThat(flood.stderr()).isEqualTo("done\n");
    }

    @Test
    void shouldEndCommandsByTheirTimeoutAndByTheAppsDeadline() throws Exception {
        ExecResult slow = runtime.exec(lab, "client", List.of("sleep", "30"), Duration.ofSeconds(1));
        assertTrue(slow.timedOut(), "timeout(1) ended it: " + slow);
        long t0 = System.nanoTime();
        // Leaves timeout(1)'s process group and keeps the output open: only the app's deadline ends it.
        ExecResult escaped = runtime.exec(
                lab,
                "client",
                List.of("sh", "-c", "echo started; setsid sh -c 'sleep 60; echo late'"),
                Duration.ofSeconds(1));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(escaped.timedOut(), escaped.toString());
        assertEquals("started\n", escaped.stdout());
        assertThat(seconds).as("seconds to the deadline (1 s + 4 s)").isBetween(4.5, 8.0);
        // The kill is sent at the deadline; on a loaded machine the process can take a moment to be gone.
        String left = "";
        for (int i = 0; i < 20; i++) {
            left = runtime.exec(lab, "client", List.of("sh", "-c", "pgrep -x sleep || true"), Duration.ofSeconds(5))
                    .stdout();
            if (left.isEmpty()) {
                break;
            }
            Thread.sleep(250);
        }
        assertEquals("", left, "the escaped process was killed");
    }

    @Test
    void shouldRunManyCommandsAtOnce() throws Exception {
        ExecutorService parallel = Executors.newFixedThreadPool(8);
        try {
            List<Future<ExecResult>> running = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                String node = i % 2 == 0 ? "client" : "server";
                int n = i;
                running.add(parallel.submit(() -> runtime.exec(
                        lab,
                        node,
                        List.of("sh", "-c", "sleep 0.$((" + n + " % 5)); echo " + n),
                        Duration.ofSeconds(10))));
            }
            for (int i = 0; i < running.size(); i++) {
                ExecResult result = running.get(i).get();
                assertEquals(i + "\n", result.stdout(), "each answer reaches its own caller");
                assertFalse(result.timedOut());
            }
        } finally {
            parallel.shutdownNow();
        }
    }
}
