package dev.tclab.lab.uml;

import dev.tclab.lab.topology.Topology;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What runs inside a UML lab's kernel, and the container command that boots it. The scripts travel with the app (in
 * the container's environment, written to a tmpfs the kernel sees read-only through hostfs), so the image holds only
 * Debian's packages and an app upgrade never needs a new image.
 */
final class UmlScripts {

    /** Where the container writes the kernel's init and the agent; the kernel's root (/) is the read-only image. */
    static final String DIR = "/tclab";

    static final String INIT_ENV = "TCLAB_INIT";
    static final String AGENT_ENV = "TCLAB_AGENT";

    private static final String INIT = resource("init.sh");
    private static final String NODE = resource("node.sh");
    private static final String ENTER = resource("enter.sh");

    private UmlScripts() {}

    static String init() {
        return INIT;
    }

    /**
     * The container's command: writes the scripts, then becomes the kernel. The command line: the image's root through
     * hostfs, read-only; the console (the agent's line) on the container's stdin and stdout and no other; only
     * emergencies printed; no SELinux (nothing here uses it, and it costs boot time).
     */
    static List<String> boot(int memoryMib) {
        String kernel = "linux.uml rootfstype=hostfs rootflags=/ ro init=" + DIR + "/init con=null con0=fd:0,fd:1 mem="
                + memoryMib + "M quiet loglevel=1 selinux=0 uml_dir=/tmp";
        return List.of(
                "sh",
                "-c",
                "printf %s \"$" + INIT_ENV + "\" >" + DIR + "/init && printf %s \"$" + AGENT_ENV + "\" >" + DIR
                        + "/agent.pl && chmod 555 " + DIR + "/init && exec " + kernel);
    }

    /** Starts the node's namespaces (in the kernel's root namespaces): see node.sh. */
    static List<String> startNode(Topology.Node node, int tmpMib, int homeMib, int runMib) {
        List<String> command = new ArrayList<>(List.of(
                "sh",
                "-c",
                NODE,
                "node",
                node.name(),
                Integer.toString(tmpMib),
                Integer.toString(homeMib),
                Integer.toString(runMib)));
        for (Map.Entry<String, String> variable : node.env().entrySet()) {
            command.add(variable.getKey() + "=" + variable.getValue().replace('\n', ' '));
        }
        return command;
    }

    /** Sets the node's namespaced sysctls, from the kernel's root: the node's learner cannot write /proc/sys. */
    static List<String> sysctls(String node, Map<String, String> sysctls) {
        List<String> command =
                new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + node, "--", "sysctl", "-q", "-w"));
        sysctls.forEach((key, value) -> command.add(key + "=" + value));
        return command;
    }

    /** Runs {@code command} in the node's network namespace with the platform's tools (the kernel's root filesystem). */
    static List<String> inNetwork(String node, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + node, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Runs {@code command} in the node as its learner: see enter.sh. */
    static List<String> asLearner(String node, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", ENTER, "enter", node));
        wrapped.addAll(command);
        return wrapped;
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
