package dev.tclab.lab.uml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.LabSpec;
import dev.tclab.lab.runtime.ProcessStream;
import dev.tclab.lab.runtime.RuntimeAdapter;
import dev.tclab.lab.runtime.StreamListener;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * docs/SECURITY.md's process flood (ForkBombIT's idea) on a UML lab: bash's classic fork bomb in one node. Every
 * process of a UML kernel is a process on the host, in the lab's one container, so a bomb in one node must not take
 * the slots the other node, a new terminal and the platform's agent need: the other node still answers commands and
 * opens a shell, and the lab stops quickly.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class UmlForkBombIT {

    private static final Logger LOG = Logger.getLogger(UmlForkBombIT.class);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Inject
    TclabConfig config;

    @Test
    void shouldKeepTheOtherNodeAndThePlatformWorkingWhileANodeForkBombs() throws Exception {
        String lab = "u" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "uml-it", "two-node"), (stage, detail) -> {});
        try {
            StringBuffer bombing = new StringBuffer();
            try (ProcessStream bomb = runtime.shell(lab, "client", List.of("bash", "-l"), into(bombing))) {
                bomb.write(":(){ :|:& };:\n".getBytes(StandardCharsets.UTF_8));
                // Let it fill whatever it can.
                Thread.sleep(10_000);

                // The bomb is in its node's cgroup (tclab.lab.pids processes at most, an equal share of the CPU).
                ExecResult cgroup = runtime.exec(
                        lab,
                        "server",
                        List.of("sh", "-c", "cd /sys/fs/cgroup/node-client && cat pids.max pids.current pids.events"),
                        WAIT);
                String[] pids = cgroup.stdout().split("\n");
                assertThat(pids).as(cgroup.stdout() + cgroup.stderr()).hasSizeGreaterThanOrEqualTo(3);
                assertThat(pids[0]).isEqualTo(Long.toString(config.lab().pids()));
                assertThat(Long.parseLong(pids[1])).as("the bomb's processes").isGreaterThan(10);
                LOG.infof(
                        "UML fork bomb: its node's cgroup: max %s, current %s, refused forks: %s",
                        pids[0], pids[1], pids[2]);

                long t0 = System.nanoTime();
                ExecResult answer = runtime.exec(lab, "server", List.of("sh", "-c", "echo answered"), WAIT);
                double answered = (System.nanoTime() - t0) / 1e9;
                assertThat(answer.stdout()).as(answer.stderr()).isEqualTo("answered\n");

                StringBuffer other = new StringBuffer();
                long t1 = System.nanoTime();
                double prompt;
                try (ProcessStream shell = runtime.shell(lab, "server", List.of("bash", "-l"), into(other))) {
                    shell.write("echo other-node-$((6*7))\n".getBytes(StandardCharsets.UTF_8));
                    long deadline = System.nanoTime() + WAIT.toNanos();
                    while (!other.toString().contains("other-node-42")) {
                        assertThat(System.nanoTime())
                                .as("a shell on the other node answers within " + WAIT + ": " + other)
                                .isLessThan(deadline);
                        Thread.sleep(50);
                    }
                    prompt = (System.nanoTime() - t1) / 1e9;
                }
                LOG.infof(
                        "UML fork bomb in one node: a command on the other node answered after %.2f s, a new shell"
                                + " there ran a command after %.2f s (load average %s)",
                        answered,
                        prompt,
                        Files.readString(Path.of("/proc/loadavg")).trim());
            }
        } finally {
            long t0 = System.nanoTime();
            runtime.stop(lab);
            LOG.infof("UML fork bomb: the lab stopped in %.2f s", (System.nanoTime() - t0) / 1e9);
        }
        assertThat(runtime.status(lab)).isEmpty();
    }

    private static StreamListener into(StringBuffer out) {
        return new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                out.append(new String(chunk, StandardCharsets.UTF_8));
            }

            @Override
            public void onClosed(String reason) {}
        };
    }
}
