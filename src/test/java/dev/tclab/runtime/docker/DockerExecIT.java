package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.lab.RetainedHeap;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabRuntime;
import dev.tclab.runtime.LabSpec;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The app's own bounds on a command, whatever runs in the container: a deadline that ends it and kills its
 * processes, and a cap on the output kept. Lab nodes and sidecars have read-only roots, so the lying timeout(1) is
 * installed in a throwaway container of the test's own with a writable root, as a learner could in a node before
 * nodes were read-only; the floods run in a real lab.
 */
@QuarkusTest
class DockerExecIT {

    @Inject
    LabRuntime runtime;

    @Inject
    DockerClient docker;

    @ConfigProperty(name = "tclab.instance")
    String instance;

    @ConfigProperty(name = "tclab.lab.image")
    String image;

    private String lab;

    @BeforeEach
    void startLab() throws Exception {
        lab = "x" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (stage, detail) -> {});
    }

    @AfterEach
    void stopLab() throws Exception {
        runtime.stop(lab);
    }

    private static ExecResult sh(DockerClient docker, String container, String script) {
        ExecResult result = DockerExec.run(docker, container, List.of("sh", "-c", script), Duration.ofSeconds(20));
        assertTrue(result.ok(), script + " failed: " + result.stdout() + result.stderr());
        return result;
    }

    @Test
    void shouldEndACommandThatIgnoresSigtermByTheAppsDeadlineEvenWhenTimeoutLies() throws Exception {
        String container = docker.createContainerCmd(image)
                .withName("tclab-execit-" + lab)
                .withLabels(Labels.service(instance, Labels.ROLE_PROBE))
                .withCmd("sleep", "infinity")
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                .exec()
                .getId();
        try {
            docker.startContainerCmd(container).exec();
            // A lying timeout(1): it drops its options and runs the command with no limit at all.
            // Written beside it and moved over it: this very command runs under the real one ("text file busy").
            sh(
                    docker,
                    container,
                    "printf '#!/bin/sh\\nshift 3\\nexec \"$@\"\\n' > /usr/bin/timeout.new"
                            + " && chmod +x /usr/bin/timeout.new && mv /usr/bin/timeout.new /usr/bin/timeout");
            long start = System.nanoTime();
            ExecResult stuck = DockerExec.run(
                    docker,
                    container,
                    List.of("sh", "-c", "trap '' TERM HUP INT; sleep 1000 & wait; sleep 1000"),
                    Duration.ofSeconds(2));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("exec with a 2 s timeout and a lying timeout(1) ended after %.1f s%n", seconds);

            assertTrue(stuck.timedOut(), "reported as timed out");
            assertThat(seconds)
                    .as("ended by the app's deadline (2 s + a 4 s margin)")
                    .isBetween(2.0, 10.0);
            String left = sh(docker, container, "ps -eo args").stdout();
            assertThat(left).as("the command and its children were killed").doesNotContain("sleep 1000");
        } finally {
            docker.removeContainerCmd(container).withForce(true).exec();
        }
    }

    @Test
    void shouldKeepTheFirstMibOfAFloodAndSayItWasCut() throws Exception {
        long before = RetainedHeap.bytes();
        ExecResult flood = runtime.exec(
                lab,
                "client",
                List.of("sh", "-c", "head -c 200000000 /dev/zero | tr '\\0' x; echo done >&2"),
                Duration.ofSeconds(60));
        long kept = flood.stdout().length();
        long retained = RetainedHeap.bytes() - before;
        System.out.printf(
                "200 MB of exec output: %d bytes kept, retained heap +%d MiB%n", kept, RetainedHeap.mib(retained));

        assertTrue(flood.ok(), "the command ran to its end: " + flood);
        assertTrue(flood.truncated(), "flagged as cut");
        assertThat(kept).isEqualTo(DockerExec.MAX_CAPTURE_BYTES);
        assertThat(flood.stderr()).isEqualTo("done\n");
        // What this result holds (1 MiB of text, 2 bytes a char at most) plus room for the JVM's noise.
        assertThat(retained).as("retained heap in bytes (bound 16 MiB)").isLessThan(16L << 20);
    }

    /**
     * A command whose container stops under it (as a Stop does to a check or a sampler racing it) fails for its
     * caller with the engine's refusal, logged in one DEBUG line, not docker-java's ERROR with a stack trace (which
     * docker-java's own callback logs here).
     */
    @Test
    void shouldFailACommandWhoseContainerStoppedWithoutAnErrorLogged() {
        String container = docker.createContainerCmd(image)
                .withName("tclab-execit-gone-" + lab)
                .withLabels(Labels.service(instance, Labels.ROLE_PROBE))
                .withCmd("sleep", "infinity")
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                .exec()
                .getId();
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler recorder = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(recorder);
        try {
            docker.startContainerCmd(container).exec();
            String execId = docker.execCreateCmd(container)
                    .withCmd("true")
                    .withAttachStdout(true)
                    .exec()
                    .getId();
            docker.killContainerCmd(container).exec();
            // What DockerExec.run does after creating its exec, on a container that is not running any more: the
            // engine answers 404 (the exec went with the container) or, while a removal runs, 409 "Removal In
            // Progress".
            DockerException refused = org.junit.jupiter.api.Assertions.assertThrows(DockerException.class, () -> {
                try (var callback = docker.execStartCmd(execId).exec(new QuietCallback<Frame>() {})) {
                    callback.awaitCompletion(10, TimeUnit.SECONDS);
                }
            });
            assertThat(refused).isInstanceOfAny(NotFoundException.class, ConflictException.class);
        } finally {
            root.removeHandler(recorder);
            docker.removeContainerCmd(container).withForce(true).exec();
        }
        assertThat(logged)
                .as("Docker log records at WARN or above")
                .filteredOn(r -> r.getLoggerName() != null
                        && (r.getLoggerName().startsWith("com.github.dockerjava")
                                || r.getLoggerName().startsWith("dev.tclab.runtime.docker")))
                .noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue());
    }
}
