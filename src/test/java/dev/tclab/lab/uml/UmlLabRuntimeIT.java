package dev.tclab.lab.uml;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.grading.run.BaselineSteps;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.lab.TestTopologies;
import dev.tclab.lab.agent.NodeDiskCaps;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.KernelCapabilities;
import dev.tclab.lab.runtime.LabSpec;
import dev.tclab.lab.runtime.ProcessStream;
import dev.tclab.lab.runtime.RuntimeAdapter;
import dev.tclab.lab.runtime.StreamListener;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What UML labs are for, on the real engine: the qdiscs this host's kernel lacks (netem, CAKE, fq_codel) work and
 * shape, the lab's container has no capability at all, and a learner's shell is root in its node's own namespaces
 * with NET_ADMIN and NET_RAW only, unable to write the platform's files or reach its agent.
 */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
class UmlLabRuntimeIT {

    private static final Logger LOG = Logger.getLogger(UmlLabRuntimeIT.class);
    private static final Pattern RTT =
            Pattern.compile("rtt min/avg/max/mdev = ([0-9.]+)/([0-9.]+)/([0-9.]+)/([0-9.]+) ms");

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @Inject
    CheckRunner checks;

    @Inject
    TclabConfig config;

    private TclabConfig.Lab limits;

    private String lab;

    @BeforeAll
    void startLab() throws Exception {
        limits = config.lab();
        lab = "u" + UUID.randomUUID().toString().substring(0, 8);
        runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "uml-it", "two-node"), (stage, detail) -> {});
    }

    @AfterAll
    void stopLab() throws Exception {
        runtime.stop(lab);
    }

    private ExecResult sh(String node, String script) throws Exception {
        return runtime.exec(lab, node, List.of("sh", "-c", script), Duration.ofSeconds(60));
    }

    @Test
    void shouldHaveTheQdiscsTheHostKernelLacks() throws Exception {
        KernelCapabilities kernel = runtime.probeKernel();

        for (String feature : List.of(
                "qdisc:netem",
                "qdisc:cake",
                "qdisc:fq_codel",
                "qdisc:sfq",
                "qdisc:prio",
                "action:police",
                "classifier:flower",
                "classifier:matchall",
                "link:ifb")) {
            assertThat(kernel.supports(feature)).as(feature + " in " + kernel).isTrue();
        }
        for (String qdisc : List.of("cake bandwidth 10mbit", "fq_codel", "sfq", "prio")) {
            ExecResult added = sh("client", "tc qdisc replace dev eth1 root " + qdisc + " && tc qdisc show dev eth1");
            assertThat(added.ok()).as(qdisc + ": " + added.stderr()).isTrue();
            assertThat(added.stdout()).startsWith("qdisc " + qdisc.split(" ")[0] + " ");
        }
        sh("client", "tc qdisc del dev eth1 root");
    }

    /**
     * netem's delay shows in ping as on a real link: the fastest round trip is at least 40 ms and at most 1 ms more
     * than the fastest one without netem. The minimum, not the average: netem's delay is a floor, and what a busy host's
     * scheduler adds to some pings (of the kernel, which is one process on the host) only ever comes on top; the
     * averages are logged beside it.
     */
    @Test
    void shouldDelayWithNetem() throws Exception {
        double[] base = rtt();
        ExecResult netem = sh("client", "tc qdisc replace dev eth1 root netem delay 40ms");
        assertThat(netem.ok()).as(netem.stderr()).isTrue();
        double[] delayed = rtt();
        sh("client", "tc qdisc del dev eth1 root");
        LOG.infof(
                "UML netem 40ms: ping min/avg/mdev %.3f/%.3f/%.3f ms, unshaped %.3f/%.3f/%.3f ms (load average %s)",
                delayed[0], delayed[1], delayed[3], base[0], base[1], base[3], loadAverage());

        assertThat(delayed[0]).as("fastest round trip through netem 40ms").isGreaterThanOrEqualTo(40.0);
        assertThat(delayed[0] - base[0])
                .as("delay netem 40ms added to the fastest round trip")
                .isBetween(39.0, 41.0);
    }

    /**
     * docs/SECURITY.md's backlog row on a UML lab: a flood queued behind a slow tbf is the lab kernel's memory, not the
     * host's. A 1 mbit tbf with {@code limit 600mb} and a 32-socket UDP flood hold megabytes in the qdisc while the
     * flood runs, and the lab still answers. (The first try asked iperf3 for 4 MB send buffers, above this kernel's
     * net.core.wmem_max of 208 KiB: iperf3 refused to start, "socket buffer size not set correctly", and the qdisc
     * read {@code backlog 0b}.)
     */
    @Test
    void shouldQueueAFloodsBacklogInTheLabsOwnKernel() throws Exception {
        sh("server", "iperf3 -s -D -1 -p 5399");
        ExecResult shaped = sh("client", "tc qdisc replace dev eth1 root tbf rate 1mbit burst 32kb limit 600mb");
        assertThat(shaped.ok()).as(shaped.stderr()).isTrue();
        ExecResult seen;
        try {
            // Each UDP socket queues at most its send buffer (the default, 208 KiB of packets' memory): 32 of them.
            seen = sh(
                    "client",
                    "timeout 15 iperf3 -c 10.0.0.2 -p 5399 -u -b 1G -t 10 -P 32 >/dev/null 2>&1 & sleep 6;"
                            + " tc -s -j qdisc show dev eth1; kill $! 2>/dev/null; wait");
        } finally {
            sh("client", "tc qdisc del dev eth1 root");
        }
        Matcher backlog = Pattern.compile("\"backlog\":(\\d+)").matcher(seen.stdout());
        assertThat(backlog.find()).as(seen.stdout() + seen.stderr()).isTrue();
        long bytes = Long.parseLong(backlog.group(1));
        LOG.infof("UML backlog under a 32-socket UDP flood: %d bytes (load average %s)", bytes, loadAverage());

        assertThat(bytes).as("bytes queued in the lab's tbf during the flood").isGreaterThan(1L << 20);
        assertThat(sh("client", "echo still here").stdout()).isEqualTo("still here\n");
    }

    /** min, avg, max and mdev of 20 pings from the client to the server, in ms. */
    private double[] rtt() throws Exception {
        ExecResult ping = sh("client", "ping -n -q -c 20 -i 0.2 10.0.0.2");
        Matcher rtt = RTT.matcher(ping.stdout());
        assertThat(rtt.find()).as(ping.stdout() + ping.stderr()).isTrue();
        return new double[] {
            Double.parseDouble(rtt.group(1)),
            Double.parseDouble(rtt.group(2)),
            Double.parseDouble(rtt.group(3)),
            Double.parseDouble(rtt.group(4))
        };
    }

    private static String loadAverage() throws Exception {
        return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                .trim();
    }

    @Test
    void shouldRunInAContainerWithNoCapabilityNoNetworkAndTheDefaultSeccompProfile() {
        InspectContainerResponse container =
                docker.inspectContainerCmd(UmlLabRuntime.containerName(lab)).exec();
        HostConfig host = container.getHostConfig();

        assertThat(host.getCapAdd()).as("added capabilities").isNullOrEmpty();
        assertThat(host.getCapDrop()).containsExactly(Capability.ALL);
        assertThat(host.getPrivileged()).isFalse();
        assertThat(host.getSecurityOpts())
                .containsExactly("no-new-privileges")
                .noneMatch(o -> o.startsWith("seccomp") || o.startsWith("apparmor"));
        assertThat(host.getNetworkMode()).isEqualTo("none");
        assertThat(host.getReadonlyRootfs()).isTrue();
        assertThat(host.getMemory()).isPositive();
        assertThat(host.getPidsLimit()).isPositive();
    }

    @Test
    void shouldGiveTheLearnerRootInItsNodeWithNetAdminAndNetRawOnly() throws Exception {
        String out = shellOutput(
                "client",
                "grep CapEff /proc/self/status; grep CapBnd /proc/self/status; grep NoNewPrivs /proc/self/status;"
                        + " hostname; echo procs=$(ls -d /proc/[0-9]* | wc -l); touch /usr/bin/tc 2>&1;"
                        + " ls /dev/console 2>&1; mount -t tmpfs x /mnt 2>&1; echo $HOME; yes | head -c 1 >/dev/null;"
                        + " echo done\n");

        assertThat(out)
                .contains("CapEff:\t0000000000003000")
                .contains("CapBnd:\t0000000000003000")
                .contains("NoNewPrivs:\t1")
                .as("a pipe's writer ends quietly when its reader is gone (SIGPIPE not ignored)")
                .doesNotContain("Broken pipe")
                .contains("\nclient\r\n")
                .contains("touch: cannot touch '/usr/bin/tc': Read-only file system")
                .contains("cannot access '/dev/console'")
                .contains("mount: /mnt: permission denied")
                .contains("/root")
                .contains("done");
        Matcher procs = Pattern.compile("procs=(\\d+)").matcher(out);
        assertThat(procs.find()).isTrue();
        assertThat(Integer.parseInt(procs.group(1)))
                .as("processes the node sees (its own only)")
                .isLessThan(10);
    }

    /**
     * docs/SECURITY.md's lying binaries on a UML lab: the learner's own tc, iperf3 and ping first in their shell's
     * PATH say "shaped", yet a check measures with the kernel's root filesystem's tools in the node's network
     * namespace, so it fails on the bare link and passes only on a real tbf. (The platform's own tools cannot be
     * replaced: the root is read-only.)
     */
    @Test
    void shouldGradeWithThePlatformsToolsWhateverTheLearnersToolsSay() throws Exception {
        // Split by "" in the script, so that the shell's echo of this input cannot pass for the lie's output.
        String lie = "qdisc tbf 4242: root rate 10Mbit burst 32Kb lat 100ms";
        String out = shellOutput(
                "client",
                "mkdir -p /root/bin && for t in tc iperf3 ping; do printf '#!/bin/sh\\necho "
                        + lie.replace("4242", "42\"\"42")
                        + "\\n' >/root/bin/$t; chmod 755 /root/bin/$t; done; export PATH=/root/bin:$PATH;"
                        + " tc qdisc show dev eth1; cp /root/bin/tc /usr/local/sbin/tc 2>&1; echo done\n");
        assertThat(out).as("the learner's shell").contains(lie).contains("'/usr/local/sbin/tc': Read-only file system");
        // A real tbf's goodput, not its accuracy (UmlLessonsSelfTestIT and docs/LESSONS.md measure that): a UML kernel
        // on a host at load 55-72 gave 7.8 Mbit/s through tbf 10mbit.
        CheckSpec spec = CheckSpecParser.parse("it.md", """
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2, seconds: 3 } }
                  - { name: q, node: client, qdisc: { dev: eth1 } }
                expect:
                  - { value: q.root.kind, equals: tbf }
                  - { value: up.mbps, between: [4mbit, 11mbit] }
                """, 1);

        CheckResult bare = checks.run(lab, "shape", spec, BaselineSteps.UNKNOWN, p -> {});
        assertThat(bare.status()).as(bare.message()).isEqualTo(CheckResult.Status.FAILED);
        assertThat(bare.raw().get("q")).doesNotContain("4242:");
        sh("client", "tc qdisc replace dev eth1 root tbf rate 10mbit burst 32kb latency 100ms");
        CheckResult shaped = checks.run(lab, "shape", spec, BaselineSteps.UNKNOWN, p -> {});
        sh("client", "tc qdisc del dev eth1 root");

        assertThat(shaped.status())
                .as(shaped.message() + " " + shaped.assertions())
                .isEqualTo(CheckResult.Status.PASSED);
        assertThat(shaped.raw().get("q")).doesNotContain("4242:").contains("\"kind\":\"tbf\"");
        LOG.infof(
                "UML tbf 10mbit through a check: %s (load average %s)",
                shaped.assertions().get(1).measured(), loadAverage());
    }

    /**
     * docs/SECURITY.md's disk rows on a UML lab: the learner's root filesystem is read-only, /tmp and /root stop at
     * their caps with "No space left on device", and the node's kernel still answers the platform afterwards.
     */
    @Test
    void shouldCapWhatALearnerCanWrite() throws Exception {
        String out = shellOutput(
                "client",
                "dd if=/dev/zero of=/tmp/f bs=1M count=1024 2>&1 | grep -o 'No space.*';"
                        + " dd if=/dev/zero of=/root/f bs=1M count=1024 2>&1 | grep -o 'No space.*';"
                        + " echo tmp=$(du -m /tmp/f | cut -f1) root=$(du -m /root/f | cut -f1);"
                        + " for f in /x /etc/hosts /var/tmp/x /usr/local/sbin/tc; do touch $f 2>&1; done; rm -f /tmp/f /root/f;"
                        + " echo done\n");

        NodeDiskCaps caps =
                NodeDiskCaps.fit(limits.tmpMib(), limits.homeMib(), limits.runMib(), limits.umlMemoryMib(), 2);
        assertThat(out)
                .contains("No space left on device")
                .contains("tmp=" + caps.tmpMib() + " ")
                .contains("root=" + caps.homeMib());
        for (String path : List.of("/x", "/etc/hosts", "/var/tmp/x", "/usr/local/sbin/tc")) {
            assertThat(out).contains("touch: cannot touch '" + path + "': Read-only file system");
        }
        assertThat(sh("client", "echo still here").stdout()).isEqualTo("still here\n");
    }

    /**
     * The nodes' disks are tmpfs in the lab's kernel, so they are its memory: every node filling its /tmp, /root and
     * /run at once gets "No space left on device" from each, the kernel's out-of-memory killer never runs, and the lab
     * still answers the platform and passes traffic.
     */
    @Test
    void shouldAnswerWithTheDiskErrorNotTheOutOfMemoryKillerWhenEveryNodeFillsItsDisks() throws Exception {
        NodeDiskCaps caps =
                NodeDiskCaps.fit(limits.tmpMib(), limits.homeMib(), limits.runMib(), limits.umlMemoryMib(), 2);
        assertThat(2 * caps.totalMib()).isLessThanOrEqualTo(limits.umlMemoryMib() / 2);
        String fill = "for d in /tmp /root /run; do dd if=/dev/zero of=$d/fill bs=1M count=1024 2>&1"
                + " | grep -c 'No space left on device'; done | tr '\\n' ' ' | sed 's/^/full: /'; echo; echo done\n";
        List<CompletableFuture<String>> filling = List.of("client", "server").stream()
                .map(node -> CompletableFuture.supplyAsync(() -> {
                    try {
                        return shellOutput(node, fill);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }))
                .toList();
        try {
            for (CompletableFuture<String> out : filling) {
                assertThat(out.get(90, TimeUnit.SECONDS)).contains("full: 1 1 1 ");
            }
            assertThat(sh("client", "ping -c 1 -W 5 10.0.0.2").exitCode()).isZero();
            String log = sh("client", "dmesg").stdout();
            assertThat(log).doesNotContain("Out of memory").doesNotContain("oom-kill");
        } finally {
            for (String node : List.of("client", "server")) {
                shellOutput(node, "rm -f /tmp/fill /root/fill /run/fill; echo done\n");
            }
        }
    }

    /**
     * docs/SECURITY.md's terminal output flood on a UML lab: a terminal's output shares the kernel's console with the
     * platform's requests, so a shell printing without end must not stop the lab's checks. While the client's shell
     * prints random base64 as fast as it can, commands on the server still answer; Ctrl-C ends the flood.
     */
    @Test
    void shouldKeepAnsweringThePlatformWhileATerminalFloodsItsOutput() throws Exception {
        java.util.concurrent.atomic.AtomicLong printed = new java.util.concurrent.atomic.AtomicLong();
        StringBuffer tail = new StringBuffer();
        List<Double> answers = new java.util.ArrayList<>();
        long flooded;
        double seconds;
        try (ProcessStream shell = runtime.shell(lab, "client", List.of("bash", "-l"), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                printed.addAndGet(chunk.length);
                tail.append(new String(chunk, StandardCharsets.ISO_8859_1));
                if (tail.length() > 4096) {
                    tail.delete(0, tail.length() - 4096);
                }
            }

            @Override
            public void onClosed(String reason) {}
        })) {
            shell.write("base64 /dev/urandom\n".getBytes(StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (printed.get() < 1 << 20) {
                assertThat(System.nanoTime())
                        .as("a MiB of the flood within 30 s")
                        .isLessThan(deadline);
                Thread.sleep(50);
            }
            long start = System.nanoTime();
            long before = printed.get();
            for (int i = 0; i < 5; i++) {
                long t0 = System.nanoTime();
                ExecResult answer = sh("server", "echo answered");
                answers.add((System.nanoTime() - t0) / 1e6);
                assertThat(answer.stdout())
                        .as("a command on the other node during the flood")
                        .isEqualTo("answered\n");
            }
            seconds = (System.nanoTime() - start) / 1e9;
            flooded = printed.get() - before;
            shell.write(new byte[] {3});
            shell.write("echo flood-over\n".getBytes(StandardCharsets.UTF_8));
            long over = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!tail.toString().contains("flood-over\r\n")) {
                assertThat(System.nanoTime())
                        .as("Ctrl-C ends the flood within 60 s")
                        .isLessThan(over);
                Thread.sleep(50);
            }
        }
        LOG.infof(
                "UML terminal output flood: %.1f MB/s through the console; 5 commands on the other node meanwhile,"
                        + " answered in %s ms (load average %s)",
                flooded / 1e6 / seconds, answers, loadAverage());
        assertThat(answers).allSatisfy(ms -> assertThat(ms).isLessThan(30_000.0));
    }

    /**
     * docs/SECURITY.md's terminal input flood on a UML lab: input a shell does not read waits in the agent's queue,
     * which takes a stream's input only while less than 32 KiB of requests wait (past that {@link ProcessStream#write}
     * says false, and the terminal drops the rest with a note, as on Docker), so the platform's next command waits
     * behind little of it.
     */
    @Test
    void shouldBoundInputAShellDoesNotReadAndStillAnswerThePlatform() throws Exception {
        long sent = 0;
        double drained;
        try (ProcessStream shell = runtime.shell(lab, "server", List.of("bash", "-l"), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {}

            @Override
            public void onClosed(String reason) {}
        })) {
            shell.write("stty -icanon -echo; sleep 999\n".getBytes(StandardCharsets.UTF_8));
            Thread.sleep(1000);
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, (byte) 'a');
            while (sent < 1_000_000_000L && shell.write(chunk)) {
                sent += chunk.length;
            }
            long t0 = System.nanoTime();
            ExecResult answer = sh("client", "echo answered");
            drained = (System.nanoTime() - t0) / 1e6;
            assertThat(answer.stdout()).isEqualTo("answered\n");
        }
        LOG.infof(
                "UML terminal input flood: %d KiB taken before the agent's queue was full; the next command answered"
                        + " after %.0f ms (load average %s)",
                sent / 1024, drained, loadAverage());
        assertThat(sent).as("input taken before the queue refused more").isLessThanOrEqualTo(64L << 10);
    }

    /** The learner's shell, with its prompt and echo, until it printed "done" (or 30 s passed). */
    private String shellOutput(String node, String input) throws Exception {
        StringBuffer out = new StringBuffer();
        try (ProcessStream shell = runtime.shell(lab, node, List.of("bash", "-l"), new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {
                out.append(new String(chunk, StandardCharsets.UTF_8));
            }

            @Override
            public void onClosed(String reason) {}
        })) {
            shell.write(input.getBytes(StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!out.toString().contains("\ndone") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        return out.toString();
    }
}
