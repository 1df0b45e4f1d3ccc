package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.RuntimeAdapter;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a learner who is root in a node can do to the host's disk (nothing beyond capped tmpfs), and the measurement
 * sidecars: hardened, in the node's network namespace but not its files or processes, and removed with the lab.
 */
@QuarkusTest
class NodeSandboxIT {

    private static final long MIB = 1024L * 1024;

    @Inject
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    private String lab;

    @BeforeEach
    void startLab() throws Exception {
        lab = "s" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
    }

    @AfterEach
    void stopLab() throws Exception {
        runtime.stop(lab);
    }

    private ExecResult inNode(String node, String script, int seconds) {
        return DockerExec.run(
                docker, NodeContainers.name(lab, node), List.of("sh", "-c", script), Duration.ofSeconds(seconds));
    }

    @Test
    void shouldStopAGibibyteInTmpAtTheCapAndRefuseWritesToTheRoot() {
        ExecResult fill = inNode("client", "dd if=/dev/zero of=/tmp/fill bs=1M count=1024", 60);
        assertNotEquals(0, fill.exitCode(), "dd of 1 GiB into /tmp must fail");
        assertThat(fill.stderr()).contains("No space left on device");
        long written = Long.parseLong(
                inNode("client", "stat -c %s /tmp/fill", 10).stdout().trim());
        assertThat(written)
                .as("bytes that reached /tmp")
                .isLessThanOrEqualTo(64 * MIB)
                .isGreaterThan(60 * MIB);

        for (String path : List.of("/x", "/usr/local/sbin/tc", "/etc/hosts", "/var/tmp/x")) {
            ExecResult write = inNode("client", "echo lie > " + path, 10);
            assertNotEquals(0, write.exitCode(), "writing " + path);
            assertThat(write.stderr()).as(path).contains("Read-only file system");
        }
        ExecResult home = inNode("client", "dd if=/dev/zero of=/root/big bs=1M count=100", 30);
        assertThat(home.stderr()).as("/root is capped too").contains("No space left on device");
    }

    @Test
    void shouldListEveryPlaceALearnerCanWriteOrRunAProgramExactly() {
        // Issue 25, row 6: a learner wrote and ran a program in /dev (the engine's tmpfs, writable with exec). Every
        // mount point in the node is tried as root: copy a program there, then run it. docs/SECURITY.md lists these.
        ExecResult places = inNode("client", """
                for d in $(awk '{print $5}' /proc/self/mountinfo | sort -u); do
                  [ -d "$d" ] || continue
                  f="$d/.tclab-probe"
                  if cp /bin/true "$f" 2>/dev/null; then
                    if "$f" 2>/dev/null; then echo "write+exec $d"; else echo "write $d"; fi
                  fi
                  rm -f "$f" 2>/dev/null
                done
                true""", 30);
        assertTrue(places.ok(), places.stderr());
        assertThat(places.stdout().lines().sorted().toList())
                .containsExactly("write /dev/shm", "write /run", "write /tmp", "write+exec /root");
        ExecResult dev =
                inNode("client", "touch /dev/x; chmod 777 /dev; echo ok > /dev/null && tty </dev/null; true", 10);
        assertThat(dev.stderr()).contains("cannot touch '/dev/x': Permission denied", "Operation not permitted");
    }

    @Test
    void shouldKeepWhatTheLessonsNeedWorking() {
        assertTrue(inNode("server", "pgrep -x iperf3", 10).ok(), "the setup's iperf3 -s -D runs on a read-only root");
        ExecResult upload = inNode(
                "client", "iperf3 -c 10.0.0.2 -C cubic -t 1 -J >/tmp/up.json && grep -c sum_received /tmp/up.json", 30);
        assertTrue(upload.ok(), upload.stderr() + upload.stdout());
        ExecResult history =
                inNode("client", "echo 'tc qdisc show' >> /root/.bash_history && cat /root/.bash_history", 10);
        assertThat(history.stdout()).contains("tc qdisc show");
        ExecResult script = inNode(
                "client",
                "printf '#!/bin/sh\\necho mine\\n' > /root/run.sh && chmod +x /root/run.sh" + " && /root/run.sh",
                10);
        assertThat(script.stdout().trim())
                .as("a learner's own script in their home")
                .isEqualTo("mine");
    }

    @Test
    void shouldKeepNoContainerLogOnTheHost() throws IOException {
        ExecResult flood = inNode("client", "head -c 50000000 /dev/zero > /proc/1/fd/1; echo done", 30);
        assertThat(flood.stdout()).contains("done");
        for (Container c : containersOfLab()) {
            InspectContainerResponse inspect =
                    docker.inspectContainerCmd(c.getId()).exec();
            assertEquals(
                    "none", inspect.getHostConfig().getLogConfig().getType().getType(), c.getNames()[0]);
            assertThat(inspect.getLogPath())
                    .as("no log file for " + c.getNames()[0])
                    .isNullOrEmpty();
            Path dir = Path.of("/var/lib/docker/containers", c.getId());
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    long bytes = files.filter(Files::isRegularFile)
                            .mapToLong(p -> p.toFile().length())
                            .sum();
                    assertThat(bytes)
                            .as("bytes on the host's disk for " + c.getNames()[0])
                            .isLessThan(MIB);
                }
            }
        }
    }

    @Test
    void shouldEndAClosedTerminalsShellWhateverTheLearnerWroteAndNoOtherProcess() throws Exception {
        assertTrue(inNode("client", "setsid sleep 777 >/dev/null 2>&1 </dev/null &", 10)
                .ok());
        String victim = inNode("client", "pgrep -x -f 'sleep 777'", 10).stdout().trim();
        assertThat(victim).as("a process of the node's that no terminal owns").matches("\\d+");
        Terminal other = new Terminal("other");
        Terminal closing = new Terminal("closing");

        // The learner fills /run and writes the other process's pid (and the other shell's) wherever a pid file was.
        closing.type("dd if=/dev/zero of=/run/fill bs=1M 2>/dev/null; df -k /run | tail -1;"
                + " for f in /run/*.pid /run/tclab-stream-x.pid; do echo " + victim + " > $f; done;"
                + " rm -f /run/*.pid; echo " + other.pid + " > /run/tclab-stream-other.pid; echo filled-$((6*7))");
        closing.awaitOutput("filled-42");
        assertThat(closing.output.toString()).as("/run is full").containsPattern(" 100% /run");
        closing.stream.close();
        closing.closed.get(10, java.util.concurrent.TimeUnit.SECONDS);

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (processes().contains("\n" + closing.pid + " ") && System.nanoTime() < deadline) {
            Thread.sleep(100); // the app hangs the shell up in the background once its terminal closed
        }
        String after = processes();
        assertThat(after).as("the closed terminal's shell is gone").doesNotContain("\n" + closing.pid + " ");
        assertThat(after).as("the learner's other process lives").contains("\n" + victim + " sleep 777");
        assertThat(after).as("the other terminal's shell lives").contains("\n" + other.pid + " bash -i");
        other.type("echo still-$((20+1))");
        other.awaitOutput("still-21");
        other.stream.close();
    }

    /** Each process of the client node as a "pid args" line, each line after a newline. */
    private String processes() {
        return "\n" + inNode("client", "ps -eo pid=,args= | sed 's/^ *//'", 10).stdout();
    }

    /** A terminal on the client node, as the terminal socket opens one, with its shell's pid in the node. */
    private final class Terminal {
        final StringBuffer output = new StringBuffer();
        final java.util.concurrent.CompletableFuture<String> closed = new java.util.concurrent.CompletableFuture<>();
        final dev.tclab.runtime.ProcessStream stream;
        final String pid;

        Terminal(String name) throws Exception {
            stream = runtime.shell(lab, "client", List.of("bash", "-i"), new dev.tclab.runtime.StreamListener() {
                @Override
                public void onOutput(byte[] chunk) {
                    output.append(new String(chunk, java.nio.charset.StandardCharsets.UTF_8));
                }

                @Override
                public void onClosed(String reason) {
                    closed.complete(reason);
                }
            });
            type("echo " + name + "-pid-$$-end");
            java.util.regex.Pattern shown =
                    java.util.regex.Pattern.compile(name + "-pid-(\\d+)-end"); // the typed line reads $$
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            java.util.regex.Matcher m = shown.matcher("");
            while (!(m = shown.matcher(output)).find() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(m.find(0), "the shell printed its pid: " + output);
            pid = m.group(1);
        }

        void type(String line) {
            assertTrue(stream.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }

        /** Waits for output the typed line does not hold itself (it computes it: "$((6*7))" prints 42). */
        void awaitOutput(String text) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!output.toString().contains(text) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(output.toString()).contains(text);
        }
    }

    @Test
    void shouldMeasureFromAHardenedSidecarThatSharesOnlyTheNodesNetwork() throws Exception {
        List<Container> all = containersOfLab();
        assertThat(all).hasSize(4);
        for (Container node : all.stream()
                .filter(c -> LabelKeys.ROLE_NODE.equals(c.getLabels().get(LabelKeys.ROLE)))
                .toList()) {
            String name = node.getLabels().get(LabelKeys.NODE);
            InspectContainerResponse sidecar = docker.inspectContainerCmd(NodeContainers.sidecarName(lab, name))
                    .exec();
            var host = sidecar.getHostConfig();
            assertEquals("container:" + node.getId(), host.getNetworkMode());
            assertThat(host.getReadonlyRootfs()).isTrue();
            assertThat(host.getPrivileged()).isFalse();
            assertThat(host.getPidMode()).as("own PID namespace").isNullOrEmpty();
            assertThat(List.of(host.getCapAdd()))
                    .extracting(Enum::name)
                    .containsExactlyInAnyOrder("NET_ADMIN", "NET_RAW");
            assertThat(List.of(host.getCapDrop())).extracting(Enum::name).containsExactly("ALL");
            assertThat(host.getSecurityOpts()).contains("no-new-privileges");
            assertThat(host.getMemory()).isEqualTo(64 * MIB);
            assertThat(host.getPidsLimit()).isEqualTo(32L);
            assertThat(sidecar.getConfig().getLabels())
                    .containsEntry(LabelKeys.ROLE, Labels.ROLE_SIDECAR)
                    .containsEntry(LabelKeys.LAB, lab)
                    .containsEntry(LabelKeys.NODE, name)
                    .containsEntry(LabelKeys.INSTANCE, node.getLabels().get(LabelKeys.INSTANCE))
                    .containsEntry(LabelKeys.EXPIRES, node.getLabels().get(LabelKeys.EXPIRES));
        }

        String sleepers = "ps -eo args | grep -c '^sleep 30[0]'";
        assertTrue(inNode("client", "echo x > /tmp/marker && sleep 300 >/dev/null 2>&1 &", 10)
                .ok());
        assertThat(inNode("client", sleepers, 10).stdout().trim())
                .as("the node's own process")
                .isEqualTo("1");
        ExecResult seen = runtime.exec(
                lab,
                "client",
                List.of("sh", "-c", "ip -o -4 addr show dev eth1; ls /tmp/marker; " + sleepers),
                Duration.ofSeconds(10));
        assertThat(seen.stdout()).as("the node's network").contains("10.0.0.1/24");
        assertThat(seen.stderr()).as("not the node's files").contains("/tmp/marker");
        assertThat(seen.stdout().trim()).as("nor its processes").endsWith("0");

        assertThat(runtime.status(lab)).extracting(NodeStatus::node).containsExactlyInAnyOrder("client", "server");
        docker.stopContainerCmd(NodeContainers.sidecarName(lab, "client"))
                .withTimeout(0)
                .exec();
        NodeStatus client = runtime.status(lab).stream()
                .filter(n -> n.node().equals("client"))
                .findFirst()
                .orElseThrow();
        assertThat(client.running())
                .as("a node that cannot be measured is reported")
                .isFalse();
        assertThat(client.state()).contains("what measures it is exited");

        assertThat(runtime.labsOnEngine()).contains(lab);
        runtime.stop(lab);
        assertThat(containersOfLab()).isEmpty();
        assertThat(runtime.labsOnEngine()).doesNotContain(lab);
    }

    private List<Container> containersOfLab() {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(LabelKeys.LAB, lab))
                .exec();
    }
}
