package dev.tclab.runtime.agent;

import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What runs inside a UML lab's kernel, and the command that boots it (a Docker container's or a pod's). The scripts
 * travel with the app (in the container's environment, written to a tmpfs the kernel sees read-only through hostfs),
 * so the image holds only Debian's packages and an app upgrade never needs a new image.
 */
public final class UmlScripts {

    /** Where the container writes the kernel's init and the agent; the kernel's root (/) is the read-only image. */
    public static final String DIR = "/tclab";

    public static final String INIT_ENV = "TCLAB_INIT";
    public static final String AGENT_ENV = "TCLAB_AGENT";
    public static final String LAB_ENV = "TCLAB_LAB";

    private static final String INIT = resource("init.pl");
    private static final String LAB = resource("lab.pl");
    /**
     * What becomes the kernel (kernel.pl, without its comment lines): on a host with a larger floating-point state than
     * UML was built for (an Intel Xeon with AMX), it refuses the kernel one host call and its programs AVX, so that the
     * kernel boots there.
     */
    private static final String KERNEL_LAUNCHER = withoutCommentLines(resource("kernel.pl"));
    /**
     * What the agent runs for lab.pl: the file the container wrote, not its source sent with every request (28 KiB of
     * hex through a console that takes 2 KiB at a time).
     */
    private static final String LAB_LOADER = "do '" + DIR + "/lab.pl'; die($@ || \"" + DIR + "/lab.pl: $!\\n\");";

    /**
     * The version of what a kernel booted by this build runs (init, the agent, lab.pl), from their content: the
     * {@link LabelKeys#PLATFORM} label of the lab's container or pod.
     */
    public static final String VERSION = ScriptDigest.of(INIT, SidecarAgent.script(), LAB);

    /**
     * The state of every node of a lab whose kernel another build booted (a pooled lab, or a learner's lab adopted
     * after an upgrade): its agent and lab.pl may not answer what this build asks (a terminal is a request older
     * agents do not know), so the lab counts as dead, and the learner is told to start it again.
     */
    public static final String OTHER_BUILD = "from another version of tclab, which this one cannot drive";

    /** Beside the kernel's memory (a file in /dev/shm, charged to the container): its host-side processes. */
    private static final int CONTAINER_OVERHEAD_MIB = 96;

    private UmlScripts() {}

    /** The memory limit of the container (or pod) that runs a kernel of {@code kernelMemoryMib}. */
    public static int containerMemoryMib(int kernelMemoryMib) {
        return kernelMemoryMib + CONTAINER_OVERHEAD_MIB;
    }

    /**
     * The size of the container's /dev/shm (a tmpfs that must allow exec, for UML's ptrace mode), where the kernel's
     * memory is a file: that memory and a little more.
     */
    public static int shmMib(int kernelMemoryMib) {
        return kernelMemoryMib + 16;
    }

    /** Whether a lab's container or pod labelled {@code labels} was booted by this build ({@link #VERSION}). */
    public static boolean bootedByThisBuild(Map<String, String> labels) {
        return labels != null && VERSION.equals(labels.get(LabelKeys.PLATFORM));
    }

    public static String init() {
        return INIT;
    }

    /** lab.pl, which makes and sets up a lab's nodes and enters them; the container writes it for its kernel. */
    public static String lab() {
        return LAB;
    }

    /** The perl source the agent runs, in a fork of itself, for lab.pl with its arguments as {@code @ARGV}. */
    static String labLoader() {
        return LAB_LOADER;
    }

    /**
     * The container's command: writes the scripts, then becomes the kernel. The command line: the image's root through
     * hostfs, read-only; the console (the agent's line) on the container's stdin and stdout and no other; of the
     * kernel's messages only emergencies printed, but not {@code quiet}: the checks UML prints before its kernel starts
     * say whether it runs the lab's processes under seccomp filters ({@code seccomp=auto}: UML 6.15 and later, about a
     * quarter of ptrace mode's host CPU; BootConsole reads which it chose); no SELinux (nothing here uses it, and it
     * costs boot time). Two boot-time measurements are skipped, 0.85 s and 0.13 s of a 1.4 s boot to init: the RAID6
     * algorithm benchmark (btrfs, built in, pulls it in; no lab has a RAID; its initcall is raid6_init since 6.15,
     * raid6_select_algo before) and the delay-loop calibration ({@code lpj=} what it measures on an x86-64 host of 2-3 GHz;
     * UML's drivers do not busy-wait on it, so another host's speed changes nothing a lab sees). Nor are UML's serial
     * lines made (ssl_init, 0.23 s under initcall_debug for 64 ttys): the console is con0, and no lab has a serial line.
     */
    public static List<String> boot(int memoryMib) {
        return List.of(
                "sh",
                "-c",
                "printf %s \"$" + INIT_ENV + "\" >" + DIR + "/init && printf %s \"$" + AGENT_ENV + "\" >" + DIR
                        + "/agent.pl && printf %s \"$" + LAB_ENV + "\" >" + DIR + "/lab.pl && chmod 555 " + DIR
                        + "/init && exec " + kernel(memoryMib, DIR + "/init"));
    }

    /**
     * The kernel's shell command, {@code init} its first program; the start benchmark's floor boots the same. The
     * kernel is started by {@link #KERNEL_LAUNCHER}.
     */
    public static String kernel(int memoryMib, String init) {
        return "perl -e '" + KERNEL_LAUNCHER + "' linux.uml rootfstype=hostfs rootflags=/ ro init=" + init
                + " con=null con0=fd:0,fd:1 mem=" + memoryMib
                + "M loglevel=1 seccomp=auto selinux=0 uml_dir=/tmp initcall_blacklist=raid6_init,raid6_select_algo,ssl_init"
                + " lpj=32677888";
    }

    /**
     * lab.pl's arguments that make every node of the topology (its tmpfs sizes, at most {@code pids} processes,
     * environment and sysctls) and its links.
     */
    static List<String> wire(Topology topology, NodeDiskCaps caps, long pids) {
        List<String> args = new ArrayList<>(List.of(
                "wire",
                Integer.toString(caps.tmpMib()),
                Integer.toString(caps.homeMib()),
                Integer.toString(caps.runMib()),
                Long.toString(pids)));
        for (Topology.Node node : topology.nodes().values()) {
            args.add("node=" + node.name());
            node.env().forEach((key, value) -> args.add("env=" + key + "=" + value.replace('\n', ' ')));
            node.sysctls().forEach((key, value) -> args.add("sysctl=" + key + "=" + value));
        }
        for (Topology.Link link : topology.links()) {
            args.add("link=" + link.a().iface() + "," + link.a().node() + ","
                    + link.b().iface() + "," + link.b().node());
        }
        return args;
    }

    /**
     * lab.pl's arguments that run the setup commands of every node that has some, each node's in order in one shell,
     * stopping at the first that fails; empty when no node has any. Each command runs in a subshell of that shell, as
     * `sh -c` would run it, without starting another shell program for it.
     */
    static List<String> setup(Topology topology) {
        List<String> args = new ArrayList<>();
        for (Topology.Node node : topology.nodes().values()) {
            if (node.exec().isEmpty()) {
                continue;
            }
            StringBuilder script = new StringBuilder();
            for (String command : node.exec()) {
                String quoted = "'" + command.replace("'", "'\\''") + "'";
                script.append("( eval ")
                        .append(quoted)
                        .append(" ) || { echo \"setup command failed: \"")
                        .append(quoted)
                        .append(" >&2; exit 1; }\n");
            }
            args.add("node=" + node.name());
            args.add("script=" + script);
        }
        return args.isEmpty() ? args : prepend("setup", args);
    }

    private static List<String> prepend(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    /** Runs {@code command} in the node's network namespace with the platform's tools (the kernel's root filesystem). */
    static List<String> inNetwork(String node, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + node, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /**
     * lab.pl's arguments that become {@code command} in the node as its learner (root in its namespaces, NET_ADMIN and
     * NET_RAW only, no new privileges, its environment, in /root): the agent's fork enters the node by system calls
     * and starts no program but the command.
     */
    static List<String> enter(String node, List<String> command) {
        List<String> args = new ArrayList<>(List.of("enter", node));
        args.addAll(command);
        return args;
    }

    /** lab.pl's arguments that print how many processes the node runs and its limit ("max" for none). */
    static List<String> pids(String node) {
        return List.of("pids", node);
    }

    /** A perl script without its comment lines (and its first line), to be put between single quotes. */
    static String withoutCommentLines(String script) {
        String code = script.lines()
                .filter(line -> !line.stripLeading().startsWith("#"))
                .collect(Collectors.joining("\n"));
        if (code.contains("'")) {
            throw new IllegalStateException("a script put between single quotes has one in its code");
        }
        return code;
    }

    private static String resource(String name) {
        try (InputStream in = UmlScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
