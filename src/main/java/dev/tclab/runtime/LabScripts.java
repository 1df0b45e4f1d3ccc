package dev.tclab.runtime;

import dev.tclab.runtime.topology.Topology;
import java.util.List;
import java.util.Map;

/**
 * The shell scripts every runtime runs the same way to wire and set up a lab, so that a lab behaves alike whatever
 * runs its containers: the runtimes differ in how they reach a node, not in what they do there.
 */
public final class LabScripts {

    private LabScripts() {}

    /**
     * Creates each link as a veth pair straight inside the two nodes' network namespaces, with its final interface
     * names: {@code ip link add eth1 netns <A> type veth peer name eth1 netns <B>}. {@code namespaceOf} gives each
     * node's namespace as {@code ip netns} takes it: a pid, or a shell expression that expands to one.
     */
    public static String vethLinks(List<Topology.Link> links, Map<String, String> namespaceOf) {
        StringBuilder script = new StringBuilder("set -e\n");
        for (Topology.Link link : links) {
            script.append("ip link add ")
                    .append(link.a().iface())
                    .append(" netns ")
                    .append(namespaceOf.get(link.a().node()))
                    .append(" type veth peer name ")
                    .append(link.b().iface())
                    .append(" netns ")
                    .append(namespaceOf.get(link.b().node()))
                    .append('\n');
        }
        return script.toString();
    }

    /** Brings the node's links up and runs its setup commands in order, stopping at the first that fails. */
    public static String nodeSetup(Topology.Node node, List<String> interfaces) {
        StringBuilder script = new StringBuilder("ip link set lo up\n");
        for (String iface : interfaces) {
            script.append("ip link set ").append(iface).append(" up || exit 1\n");
        }
        for (String command : node.exec()) {
            String quoted = "'" + command.replace("'", "'\\''") + "'";
            script.append("sh -c ")
                    .append(quoted)
                    .append(" || { echo \"setup command failed: \"")
                    .append(quoted)
                    .append(" >&2; exit 1; }\n");
        }
        return script.toString();
    }
}
