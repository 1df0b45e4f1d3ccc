package dev.tclab.runtime.uml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import dev.tclab.grading.spec.OutputReader;
import dev.tclab.lab.RetainedHeap;
import dev.tclab.learner.LearnerIds;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.ProcessStream;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.StreamListener;
import dev.tclab.runtime.agent.NodeDiskCaps;
import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.testing.RunsAlone;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
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

    @Inject
    LearnerIds learnerIds;

    @TestHTTPResource("/")
    URI base;

    private final ObjectMapper json = new ObjectMapper();

    private TclabConfig.Lab limits;

    private String cookie;

    private String lab;

    /**
     * One lab for the class, started through the public API as a page starts it, so that its statistics socket works
     * too: every test leaves it as it found it. Started by the first test (RestAssured points at the app only then).
     */
    @BeforeEach
    void labRunning() throws Exception {
        if (lab == null) {
            limits = config.lab();
            cookie = learnerIds.sign(learnerIds.newId());
            lab = TestLabs.startAndAwait("uml-test", cookie, Duration.ofSeconds(120));
        }
    }

    @AfterAll
    void stopLab() {
        if (lab != null) {
            TestLabs.stop(base, lab, cookie);
        }
    }

    private ExecResult sh(String node, String script) throws Exception {
        return runtime.exec(lab, node, List.of("sh", "-c", script), Duration.ofSeconds(60));
    }

    @Test
    void shouldHaveTheQdiscsTheHostKernelLacks() throws Exception {
        KernelCapabilities kernel = runtime.probeKernel();

        // The lab image's UML 7.2 runs the lab's processes under seccomp here (lab-image/uml-kernel.sh), not ptrace.
        assertThat(kernel.kernel()).as("the UML kernel's release").startsWith("7.2.");
        assertThat(kernel.mode()).as("how it runs the lab's processes").isEqualTo("seccomp");
        assertThat(runtime.ownKernelIfProbed()).contains(kernel);

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
                    "timeout 15 iperf3 -c 10.9.0.2 -p 5399 -u -b 1G -t 10 -P 32 >/dev/null 2>&1 & sleep 6;"
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

    /**
     * docs/SECURITY.md's command output cap on a UML lab: the agent in the lab's kernel keeps the first
     * {@link BoundedCommand#MAX_CAPTURE_BYTES} of a command's 8 MB and says it cut the rest, which it read away in the
     * kernel, so only that MiB crosses the console; a check measuring such a command keeps a few KiB, and the app's
     * heap is not left holding the flood.
     */
    @Test
    void shouldKeepTheFirstMibOfACommandsFloodAndTheHeapBounded() throws Exception {
        CheckSpec spec = CheckSpecParser.parse("it.md", """
                measure:
                  - { name: up, node: client, command: "yes x | head -c 8000000", parse: json }
                expect:
                  - { value: up.json.mbps, above: 1 }
                """, 1);
        long before = RetainedHeap.bytes();
        long t0 = System.nanoTime();
        ExecResult flood = sh("client", "head -c 8000000 /dev/zero | tr '\\0' x; echo done >&2");
        double seconds = (System.nanoTime() - t0) / 1e9;
        CheckResult check = checks.run(lab, "flood", spec, BaselineSteps.UNKNOWN, p -> {});
        long retained = RetainedHeap.bytes() - before;
        LOG.infof(
                "UML 8 MB of command output: %d bytes kept in %.1f s, a check on it kept %d chars; retained heap +%d"
                        + " MiB (load average %s)",
                flood.stdout().length(),
                seconds,
                check.raw().get("up").length(),
                RetainedHeap.mib(retained),
                loadAverage());

        assertThat(flood.ok())
                .as("the command ran to its end: " + flood.stderr())
                .isTrue();
        assertThat(flood.truncated()).as("flagged as cut").isTrue();
        assertThat(flood.stdout()).hasSize(BoundedCommand.MAX_CAPTURE_BYTES).matches("x+");
        assertThat(flood.stderr()).isEqualTo("done\n");
        assertThat(check.status()).as(check.message()).isNotEqualTo(CheckResult.Status.PASSED);
        assertThat(check.message()).contains("could not be read");
        assertThat(check.raw().get("up"))
                .contains("output cut here: it was more than 1 MiB")
                .hasSizeLessThan(OutputReader.MAX_RAW_CHARS + 200);
        // What these results hold (1 MiB of text, 2 bytes a char at most) plus room for the JVM's noise.
        assertThat(retained).as("retained heap in bytes (bound 16 MiB)").isLessThan(16L << 20);
    }

    /**
     * docs/SECURITY.md's statistics round cap on a UML lab. The sampler runs the kernel root filesystem's tc in the
     * node's network namespace (the agent's stream), so a learner cannot put a lying tc in its way; what they can do is
     * build a tree that makes tc print megabytes: 21,000 u32 filters list as about 2.5 MB a round. The round is
     * dropped at 2 MiB, the sampler restarted and the page told; no frame carries the flood, the heap keeps none of it,
     * and once the filters are gone the samples come back.
     */
    @Test
    void shouldRestartASamplerFloodedByAHugeFilterListTellThePageAndKeepTheHeapBounded() throws Exception {
        String filters = "{ echo 'qdisc add dev eth1 root handle 1: htb default 1';"
                + " echo 'class add dev eth1 parent 1: classid 1:1 htb rate 100mbit';"
                + " for p in 1 2 3 4 5 6; do i=0; while [ $i -lt 3500 ]; do"
                + " echo \"filter add dev eth1 parent 1: protocol ip prio $p u32 match ip dst 10.$p.$((i / 250)).$((i % 250))/32"
                + " flowid 1:1\"; i=$((i + 1)); done; done; } | tc -batch - && tc filter show dev eth1 | wc -c";
        ExecResult made = sh("client", filters);
        assertThat(made.ok()).as(made.stderr()).isTrue();
        long listed = Long.parseLong(made.stdout().trim());
        assertThat(listed)
                .as("bytes tc lists for the filters, above a round's 2 MiB")
                .isGreaterThan(2L << 20);
        try (TestSocket stats = TestSocket.stats(base, lab, cookie)) {
            long before = RetainedHeap.bytes();
            long t0 = System.nanoTime();
            String notice = null;
            int longest = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (notice == null && System.nanoTime() < deadline) {
                String text = stats.nextText(Duration.ofSeconds(90));
                longest = Math.max(longest, text.length());
                JsonNode frame = json.readTree(text);
                if ("notice".equals(frame.path("type").asText())
                        && "client".equals(frame.path("node").asText())) {
                    notice = frame.path("message").asText();
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(notice).as("the page was told").contains("more than 2 MiB in one round");
            ExecResult removed = sh("client", "tc qdisc del dev eth1 root");
            assertThat(removed.ok()).as(removed.stderr()).isTrue();
            JsonNode sample = nextSample(stats, "client", Duration.ofSeconds(90));
            long retained = RetainedHeap.bytes() - before;
            LOG.infof(
                    "UML sampler flood: tc listed %d bytes of filters; the page told after %.1f s, longest frame %d"
                            + " chars, retained heap +%d MiB; samples again once the filters went (load average %s)",
                    listed, seconds, longest, RetainedHeap.mib(retained), loadAverage());
            assertThat(sample.path("devices")).isNotEmpty();
            assertThat(longest).as("no flood frame reached the page").isLessThan(64 * 1024);
            assertThat(retained).as("retained heap in bytes (bound 32 MiB)").isLessThan(32L << 20);
        } finally {
            sh("client", "tc qdisc del dev eth1 root 2>/dev/null; true");
        }
    }

    /**
     * docs/SECURITY.md's backlog guard on a UML lab. Packets a UML lab queues are its kernel's memory ({@code mem=},
     * the lab's 192 MiB, held in its container's /dev/shm and charged to the container's memory limit), never the host
     * kernel's; the guard still acts on them, since a lab whose kernel memory is full of packets cannot run its own
     * checks. A learner's NET_ADMIN allows SO_SNDBUFFORCE: five UDP sockets with 16 MB send buffers, sending without
     * waiting into a 1 mbit tbf with {@code limit 600mb}, queue more than the ceiling; the sampler reports it, the guard
     * removes that root qdisc with the platform's tc and the page is told.
     */
    @Test
    void shouldRemoveAQueueAboveTheCeilingInTheLabsOwnKernelAndTellThePage() throws Exception {
        ExecResult shaped = sh("client", "tc qdisc replace dev eth1 root tbf rate 1mbit burst 32kb limit 600mb");
        assertThat(shaped.ok()).as(shaped.stderr()).isTrue();
        try (TestSocket stats = TestSocket.stats(base, lab, cookie)) {
            nextSample(stats, "client", Duration.ofSeconds(60));
            ExecResult flooding = sh(
                    "client",
                    // Unconnected sockets (sendto): an ICMP error from the server cannot end the sending early.
                    "ping -c 1 -W 5 10.9.0.2 >/dev/null; perl -MSocket -e '$| = 1;"
                            + " my $to = pack_sockaddr_in(9, inet_aton(\"10.9.0.2\")); for (1 .. 5) {"
                            + " socket(my $s, PF_INET, SOCK_DGRAM, 0) or die \"socket: $!\";"
                            + " setsockopt($s, SOL_SOCKET, 32, pack(\"i\", 8 << 20)) or die \"SO_SNDBUFFORCE: $!\";"
                            + " my $n = 0; $n++ while send($s, \"x\" x 1400, MSG_DONTWAIT, $to);"
                            + " print \"$n sent ($!); \"; push @kept, $s; } sleep 60' >/tmp/sent 2>&1 &"
                            + " sleep 3; cat /tmp/sent; tc -s qdisc show dev eth1");
            LOG.infof("UML backlog flood: %s", flooding.stdout().replace('\n', ' '));
            JsonNode reset = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (reset == null && System.nanoTime() < deadline) {
                JsonNode frame = json.readTree(stats.nextText(Duration.ofSeconds(60)));
                if ("backlog-reset".equals(frame.path("type").asText())) {
                    reset = frame;
                }
            }
            assertThat(reset)
                    .as("the page was told of the reset: " + flooding.stdout())
                    .isNotNull();
            long ceiling = (long) limits.maxQdiscBacklogMib() << 20;
            LOG.infof(
                    "UML backlog guard: %s; the lab's container uses %s (load average %s)",
                    reset, containerMemory(), loadAverage());
            assertThat(reset.path("node").asText()).isEqualTo("client");
            assertThat(reset.path("dev").asText()).isEqualTo("eth1");
            assertThat(reset.path("backlogBytes").asLong()).isGreaterThan(ceiling);
            assertThat(reset.path("message").asText()).contains("tclab removed that root qdisc");
            JsonNode root = json.readTree(
                            sh("client", "tc -s -j qdisc show dev eth1").stdout())
                    .path(0);
            assertThat(root.path("kind").asText())
                    .as("the tbf was removed: " + root)
                    .isNotEqualTo("tbf");
            assertThat(root.path("backlog").asLong()).isLessThan(ceiling);
        } finally {
            sh("client", "pkill -f '[S]O_SNDBUFFORCE'; tc qdisc del dev eth1 root 2>/dev/null; rm -f /tmp/sent; true");
        }
    }

    /** The memory the lab's container uses, as its cgroup counts it on the host (cgroup v1 here), or why not. */
    private String containerMemory() {
        String id = docker.inspectContainerCmd(UmlLabRuntime.containerName(lab))
                .exec()
                .getId();
        for (String path : List.of(
                "/sys/fs/cgroup/memory/docker/" + id + "/memory.usage_in_bytes",
                "/sys/fs/cgroup/system.slice/docker-" + id + ".scope/memory.current")) {
            try {
                long bytes = Long.parseLong(java.nio.file.Files.readString(java.nio.file.Path.of(path))
                        .trim());
                return (bytes >> 20) + " MiB of its "
                        + (docker.inspectContainerCmd(id).exec().getHostConfig().getMemory() >> 20) + " MiB limit";
            } catch (java.io.IOException | NumberFormatException e) {
                // Another cgroup layout.
            }
        }
        return "an unknown amount (no cgroup file found)";
    }

    private JsonNode nextSample(TestSocket stats, String node, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode frame = json.readTree(stats.nextText(wait));
            if ("sample".equals(frame.path("type").asText())
                    && node.equals(frame.path("node").asText())) {
                return frame;
            }
        }
        throw new AssertionError("no sample of " + node + " within " + wait);
    }

    /** min, avg, max and mdev of 20 pings from the client to the server, in ms. */
    private double[] rtt() throws Exception {
        ExecResult ping = sh("client", "ping -n -q -c 20 -i 0.2 10.9.0.2");
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
        assertThat(container.getConfig().getLabels())
                .as("the version of the scripts its kernel runs")
                .containsEntry(LabelKeys.PLATFORM, UmlScripts.VERSION);
    }

    @Test
    void shouldGiveTheLearnerRootInItsNodeWithNetAdminAndNetRawOnly() throws Exception {
        String out = shellOutput(
                "client",
                "grep CapEff /proc/self/status; grep CapBnd /proc/self/status; grep NoNewPrivs /proc/self/status;"
                        + " hostname; echo procs=$(ls -d /proc/[0-9]* | wc -l); touch /usr/bin/tc 2>&1;"
                        + " ls /dev/console 2>&1; mount -t tmpfs x /mnt 2>&1; echo $HOME; yes | head -c 1 >/dev/null;"
                        + " echo h > /proc/sysrq-trigger; echo 7 > /proc/sys/kernel/printk; echo done\n");

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
                .as("no SysRq (it prints on the console, the agent's line) and no console level to raise")
                .contains("/proc/sysrq-trigger: Read-only file system")
                .contains("/proc/sys/kernel/printk: Read-only file system")
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
                  - { name: up, node: client, iperf3: { server: 10.9.0.2, seconds: 3 } }
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
            assertThat(sh("client", "ping -c 1 -W 5 10.9.0.2").exitCode()).isZero();
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

    /**
     * The learner's shell, with its prompt and echo, once it ran {@code input} (or 30 s passed): the end is a line the
     * shell prints after the input's commands, which its echo of the input cannot contain ("tclab-42", typed as an
     * arithmetic expansion). Waiting for the input's own "done" ended early when the echo wrapped before it, and not at
     * all on a short input, whose output has no newline right before "done": each of this class's cleanups then waited
     * out the 30 s.
     */
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
            shell.write((input + "echo tclab-$((6*7))\n").getBytes(StandardCharsets.UTF_8));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!out.toString().contains("tclab-42") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
        return out.toString();
    }
}
