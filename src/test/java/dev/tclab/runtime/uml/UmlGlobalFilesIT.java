package dev.tclab.runtime.uml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.web.TestLabs;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * docs/SECURITY.md's UML-global files: a node's root, trying every way in it has, writes neither /proc/sysemu (0 there
 * hung the lab's kernel at 100 % of a core) nor /proc/exitcode, and the lab's kernel still answers afterwards. Each
 * attempt runs as a terminal's shell does (lab.pl's enter: the node's namespaces, NET_ADMIN and NET_RAW only).
 */
@QuarkusTest
class UmlGlobalFilesIT {

    private static final Logger LOG = Logger.getLogger(UmlGlobalFilesIT.class);
    private static final Duration WAIT = Duration.ofSeconds(60);

    /**
     * Each attempt prints {@code NAME=ok} when it wrote (or mounted) what it must not, {@code NAME=refused} otherwise;
     * the files' values are printed after.
     */
    private static final String ATTEMPTS = String.join(
            "\n",
            "try() { name=$1; shift; if \"$@\" >/dev/null 2>&1; then echo \"$name=ok\"; else echo \"$name=refused\"; fi; }",
            "grep Cap /proc/self/status",
            "ls -l /proc/sysemu /proc/exitcode 2>&1",
            "echo writable: $(find /proc -path '/proc/[0-9]*' -prune -o -type f -writable -print 2>/dev/null"
                    + " | grep -v '^/proc/self\\|^/proc/thread-self')",
            "try sysemu sh -c 'echo 0 > /proc/sysemu'",
            "try exitcode sh -c 'echo 3 > /proc/exitcode'",
            "try umount umount /proc/sysemu",
            "try umount-lazy umount -l /proc/exitcode",
            "try remount mount -o remount,rw /proc/sysemu",
            "try bind-remount mount -o remount,bind,rw /proc/sysemu",
            "try new-proc sh -c 'mkdir -p /tmp/p && mount -t proc proc /tmp/p && echo 0 > /tmp/p/sysemu'",
            "try userns-umount unshare -Urm sh -c 'umount /proc/sysemu; echo 0 > /proc/sysemu'",
            "try userns-proc unshare -Urmpf sh -c 'mount -t proc proc /proc && echo 0 > /proc/sysemu'",
            "try userns-exitcode unshare -Urmpf sh -c 'mount -t proc proc /proc && echo 3 > /proc/exitcode'",
            "echo values: sysemu=$(cat /proc/sysemu) exitcode=$(cat /proc/exitcode)",
            "echo done-$((6*7))");

    @Inject
    LearnerIds learnerIds;

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Test
    void shouldKeepANodesRootFromWritingTheKernelsSysemuAndExitcode() throws Exception {
        String cookie = learnerIds.sign(learnerIds.newId());
        String lab = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        try {
            String said = asLearner(lab, "client", ATTEMPTS);
            LOG.infof("a node's root against the kernel's global files:%n%s", said);
            assertThat(said).contains("done-42");
            for (String attempt : List.of(
                    "sysemu",
                    "exitcode",
                    "umount",
                    "umount-lazy",
                    "remount",
                    "bind-remount",
                    "new-proc",
                    "userns-umount",
                    "userns-proc",
                    "userns-exitcode")) {
                assertThat(said).as(said).contains(attempt + "=refused");
            }
            assertThat(said.lines())
                    .as("what a node's root can write in /proc, outside its own processes' directories")
                    .contains("writable:");
            // UML 7.2 has no /proc/sysemu at all (ptrace's system-call emulation is gone from it); on 6.1, 2: the
            // kernel's own mode (sysemu on, and on each system call's entry and exit), unchanged.
            assertThat(said)
                    .as("the kernel's own values")
                    .containsAnyOf("values: sysemu= exitcode=0", "values: sysemu=2 exitcode=0");

            ExecResult answer = runtime.exec(lab, "server", List.of("echo", "still-answering"), WAIT);
            assertThat(answer.stdout()).as(answer.stderr()).isEqualTo("still-answering\n");
        } finally {
            TestLabs.stop(lab, cookie);
        }
    }

    /** What {@code script} prints, run by sh as the node's learner (as a terminal's shell is). */
    private String asLearner(String lab, String node, String script) throws Exception {
        StringBuffer out = new StringBuffer();
        CompletableFuture<String> closed = new CompletableFuture<>();
        try (ProcessStream shell = runtime.shell(lab, node, List.of("sh", "-c", script), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                out.append(new String(chunk, StandardCharsets.UTF_8));
            }

            @Override
            public void onClosed(String reason) {
                closed.complete(reason);
            }
        })) {
            closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        return out.toString().replace("\r", "");
    }
}
