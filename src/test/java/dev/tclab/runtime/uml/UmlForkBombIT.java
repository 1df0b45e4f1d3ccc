package dev.tclab.runtime.uml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.config.TclabConfig;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * docs/SECURITY.md's process flood (ForkBombIT's idea) on a UML lab: bash's classic fork bomb in one node. Every
 * process of a UML kernel is a process on the host, in the lab's one container, so a bomb in one node must not take
 * the slots the other node, a new terminal and the platform's agent need: the other node still answers commands and
 * opens a shell, and the lab stops quickly; a new terminal into the bombed node gets the process-limit notice, as on
 * Docker (ForkBombIT).
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class UmlForkBombIT {

    private static final Logger LOG = Logger.getLogger(UmlForkBombIT.class);
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The start of TerminalSession's notice, as docs/SECURITY.md quotes it. */
    private static final String NOTICE = "this node has hit its process limit: kill something or reset the lab";

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Inject
    TclabConfig config;

    @Test
    void shouldKeepTheOtherNodeAndThePlatformWorkingAndTellANewTerminalWhileANodeForkBombs() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String lab = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        try {
            StringBuffer bombing = new StringBuffer();
            try (ProcessStream bomb = runtime.shell(lab, "client", List.of("bash", "-l"), into(bombing))) {
                bomb.write(":(){ :|:& };:\n".getBytes(StandardCharsets.UTF_8));
                long filling = System.nanoTime() + WAIT.toNanos();
                while (!runtime.atProcessLimit(lab, "client")) {
                    assertThat(System.nanoTime())
                            .as("the bomb filled its node's process limit within " + WAIT)
                            .isLessThan(filling);
                    Thread.sleep(200);
                }
                assertThat(runtime.atProcessLimit(lab, "server"))
                        .as("a node with a few processes is not at its limit")
                        .isFalse();

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

                // A new terminal into the bombed node, as a page opens it: bash starts (a node at its limit refuses
                // forks, not joins) but cannot fork for its profile, and the platform says what to do.
                long opened = System.nanoTime();
                double noticed;
                try (TestSocket terminal = TestSocket.terminal(base, lab, "client", cookie)) {
                    String told = terminal.awaitOutput(out -> out.contains(NOTICE) || out.contains("# "), WAIT);
                    noticed = (System.nanoTime() - opened) / 1e9;
                    assertThat(told).as("the notice comes before any prompt").contains(NOTICE);
                }
                LOG.infof(
                        "UML fork bomb in one node: a command on the other node answered after %.2f s, a new shell"
                                + " there ran a command after %.2f s, a new terminal into the bombed node got the"
                                + " process-limit notice after %.2f s (load average %s)",
                        answered,
                        prompt,
                        noticed,
                        Files.readString(Path.of("/proc/loadavg")).trim());
            }
        } finally {
            long t0 = System.nanoTime();
            TestLabs.stop(lab, cookie);
            LOG.infof("UML fork bomb: the lab's DELETE returned after %.2f s", (System.nanoTime() - t0) / 1e9);
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
