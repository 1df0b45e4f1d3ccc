package dev.tclab.runtime.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lab's network as its lab.yml describes it: Linux nodes joined by point-to-point links.
 *
 * @param name  the topology's name
 * @param nodes nodes by name, in file order
 * @param links  point-to-point links between node interfaces
 * @param probes latency probes the platform runs while the page watches the lab, in file order
 * @param kernel whose kernel the lab's nodes run on
 */
public record Topology(String name, Map<String, Node> nodes, List<Link> links, List<Probe> probes, Kernel kernel) {

    /** {@code ip addr add 10.0.0.2/24 dev eth1} as lab.yml setups write it (also {@code ip a add}, {@code address}). */
    private static final Pattern ADDR_ADD = Pattern.compile(
            "\\bip\\s+(?:-\\S+\\s+)*a(?:ddr(?:ess)?)?\\s+add\\s+(\\d{1,3}(?:\\.\\d{1,3}){3})(?:/\\d+)?\\s.*\\bdev\\s+\\S+");

    /** A topology on the host's kernel. */
    public Topology(String name, Map<String, Node> nodes, List<Link> links, List<Probe> probes) {
        this(name, nodes, links, probes, Kernel.HOST);
    }

    /** A topology without latency probes, on the host's kernel. */
    public Topology(String name, Map<String, Node> nodes, List<Link> links) {
        this(name, nodes, links, List.of());
    }

    /**
     * Whose kernel a lab runs on (lab.yml {@code kernel:}): the host's, shared by its nodes' namespaces (the quickest
     * start); a User-Mode Linux kernel of the lab's own, with every qdisc, classifier and action; or the host's unless
     * it lacks a kernel feature the lesson requires.
     */
    public enum Kernel {
        HOST,
        UML,
        AUTO;

        /** The lab.yml word. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One container of the lab.
     *
     * @param image   image to run, or null for the configured lab image
     * @param hidden  true when the learner gets no terminal on it (an ISP "modem", say)
     * @param sysctls namespaced kernel settings applied when the container is created
     * @param exec    shell commands run in order once the links are up, before the learner arrives
     * @param stats   the interfaces whose tc statistics the page shows, as names or shell patterns
     *                ({@code ifb*}); empty means every interface but lo
     */
    public record Node(
            String name,
            String image,
            boolean hidden,
            Map<String, String> env,
            Map<String, String> sysctls,
            List<String> exec,
            List<String> stats) {}

    /** One end of a link: a node and the interface name it gets there. */
    public record Endpoint(String node, String iface) {
        @Override
        public String toString() {
            return node + ":" + iface;
        }
    }

    /** A veth pair between two nodes. */
    public record Link(Endpoint a, Endpoint b) {}

    /**
     * A latency probe: the platform pings {@code to} from {@code from}'s measurement sidecar (never with the learner's
     * tools) and the page plots the round trips beside the throughput.
     *
     * @param name  the plot's label, unique in the lab
     * @param from  the node whose network namespace the pings leave from
     * @param to    an IPv4 unicast address of the lab
     * @param every the time between two pings
     */
    public record Probe(String name, String from, String to, Duration every) {}

    /** The interfaces a node gets from its links, in link order. */
    public List<String> interfacesOf(String node) {
        List<String> names = new ArrayList<>();
        for (Link link : links) {
            if (link.a().node().equals(node)) {
                names.add(link.a().iface());
            }
            if (link.b().node().equals(node)) {
                names.add(link.b().iface());
            }
        }
        return names;
    }

    /**
     * Each address a node's setup ({@code exec}) adds, to that node: where a measurement's server must run
     * (docs/SECURITY.md, "A measurement proves it crossed the link").
     */
    public Map<String, String> addressOwners() {
        Map<String, String> owners = new HashMap<>();
        nodes.values()
                .forEach(node -> node.exec()
                        .forEach(command ->
                                addedAddress(command).ifPresent(address -> owners.put(address, node.name()))));
        return owners;
    }

    /** The IPv4 address a command adds to an interface ({@code ip addr add 10.0.0.2/24 dev eth1}), if it adds one. */
    public static Optional<String> addedAddress(String command) {
        Matcher m = ADDR_ADD.matcher(command);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Names of the nodes a learner gets a terminal on. */
    public List<String> interactiveNodes() {
        return nodes.values().stream().filter(n -> !n.hidden()).map(Node::name).toList();
    }
}
