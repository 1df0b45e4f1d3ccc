package dev.tclab.lab;

import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a lab.yml: a subset of containerlab's topology format ({@code name}, {@code topology.nodes} with
 * {@code kind: linux}, {@code image}, {@code env}, {@code exec}; {@code topology.links[].endpoints}), plus
 * {@code hidden} (no learner terminal), {@code sysctls}, {@code stats} (the interfaces whose statistics the page
 * shows) and the top-level {@code probes} (latency the page plots). Every problem is reported with file, line and
 * field.
 */
public final class TopologyParser {

    /** Node names become host names and parts of container names. */
    static final Pattern NODE_NAME = Pattern.compile("[a-z][a-z0-9-]{0,19}");
    /** Linux interface names: at most 15 characters, no slash, no blanks. */
    static final Pattern IFACE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,14}");
    /** An interface name in which {@code *} stands for any characters; safe in a shell {@code case} pattern. */
    static final Pattern IFACE_PATTERN = Pattern.compile("[A-Za-z*][A-Za-z0-9_.*-]{0,14}");
    static final Pattern LAB_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** Only network sysctls are namespaced per container; others would need a privileged container. */
    static final Pattern SYSCTL = Pattern.compile("net\\.[a-z0-9_.]+");
    /** A probe's label on the page: printable, short enough for a legend. */
    static final Pattern PROBE_NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._:>-]{0,39}");
    /** Dotted-quad IPv4 without leading zeros (ping would read {@code 010} as octal). */
    static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})\\.(0|[1-9][0-9]{0,2})\\.(0|[1-9][0-9]{0,2})"
            + "\\.(0|[1-9][0-9]{0,2})");
    static final Pattern PROBE_EVERY = Pattern.compile("([0-9]{1,5})ms|([0-9]{1,2}(?:\\.[0-9]{1,3})?)s");
    /** Each probe is a ping process in a sidecar (which has few pids to spare) and a line on the page's plot. */
    static final int MAX_PROBES = 4;
    static final Duration PROBE_MIN_EVERY = Duration.ofMillis(100);
    static final Duration PROBE_MAX_EVERY = Duration.ofSeconds(5);
    static final Duration PROBE_DEFAULT_EVERY = Duration.ofMillis(200);

    /** The keys read; tests hold docs/schema/lab.schema.json to the same lists. */
    static final List<String> TOP_KEYS = List.of("name", "topology", "probes");
    static final List<String> TOPOLOGY_KEYS = List.of("nodes", "links");
    static final List<String> NODE_KEYS = List.of("kind", "image", "hidden", "env", "sysctls", "exec",
            "stats");
    static final List<String> LINK_KEYS = List.of("endpoints");
    static final List<String> PROBE_KEYS = List.of("name", "from", "to", "every");

    private TopologyParser() {
    }

    public static Topology parse(String file, String text) throws TopologyException {
        YamlNode root;
        try {
            root = YamlNode.parse(file, "this file", text, 1);
        } catch (YamlException e) {
            throw new TopologyException(List.of(e.problem()));
        }
        YamlChecks checks = new YamlChecks();
        if (!root.isMap()) {
            checks.add(root, "a lab.yml is a mapping with 'name' and 'topology'");
            throw new TopologyException(checks.problems());
        }
        checks.onlyKeys(root, TOP_KEYS);
        String name = checks.text(root, "name", null, true);
        checks.require(root.get("name"), name, LAB_NAME.asMatchPredicate(), "lowercase letters, digits and '-'");
        YamlNode topology = checks.map(root, "topology", true);
        Map<String, Topology.Node> nodes = new LinkedHashMap<>();
        List<Topology.Link> links = new ArrayList<>();
        if (topology != null) {
            checks.onlyKeys(topology, TOPOLOGY_KEYS);
            YamlNode nodesNode = checks.map(topology, "nodes", true);
            if (nodesNode != null) {
                nodesNode.entries().forEach((nodeName, spec) -> readNode(checks, nodeName, spec, nodes));
                if (nodesNode.entries().isEmpty()) {
                    checks.add(nodesNode, "a lab needs at least one node");
                }
            }
            for (YamlNode link : checks.list(topology, "links", false)) {
                readLink(checks, link, nodes, links);
            }
        }
        List<Topology.Probe> probes = readProbes(checks, root, topology == null ? null : nodes);
        if (!checks.ok()) {
            throw new TopologyException(checks.problems());
        }
        return new Topology(name, nodes, links, probes);
    }

    /** The top-level {@code probes}; {@code nodes} is null when the topology itself could not be read. */
    private static List<Topology.Probe> readProbes(YamlChecks checks, YamlNode root, Map<String, Topology.Node> nodes) {
        List<YamlNode> items = checks.list(root, "probes", false);
        if (items.size() > MAX_PROBES) {
            checks.add(root.get("probes"), "a lab has at most " + MAX_PROBES + " probes (each is a ping the server runs"
                    + " and a line on the plot); found " + items.size());
            return List.of();
        }
        List<Topology.Probe> probes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (YamlNode item : items) {
            if (!item.isMap()) {
                checks.add(item, "expected a probe with 'name', 'from' and 'to' (and 'every'), found " + item.kind());
                continue;
            }
            checks.onlyKeys(item, PROBE_KEYS);
            String name = checks.text(item, "name", null, true);
            String from = checks.text(item, "from", null, true);
            String to = checks.text(item, "to", null, true);
            Duration every = probeInterval(checks, item.get("every"));
            boolean ok = true;
            if (name != null && !PROBE_NAME.matcher(name).matches()) {
                checks.add(item.get("name"), "'" + name + "' is not a usable probe name: 1-40 letters, digits, spaces"
                        + " and . _ : > -, starting with a letter or digit, e.g. 'client to server'");
                ok = false;
            } else if (name != null && !names.add(name)) {
                checks.add(item.get("name"), "another probe is already named '" + name + "'; give each its own name");
                ok = false;
            }
            if (from != null && nodes != null && !nodes.containsKey(from)) {
                checks.add(item.get("from"), "no node named '" + from + "' in topology.nodes (have: "
                        + String.join(", ", nodes.keySet()) + ")");
                ok = false;
            }
            if (to != null && !isUnicastIpv4(to)) {
                checks.add(item.get("to"), "'" + to + "' is not an IPv4 address of a lab node: write one address,"
                        + " e.g. 198.51.100.10 (no host name, no broadcast or multicast address)");
                ok = false;
            }
            if (ok && name != null && from != null && to != null && every != null) {
                probes.add(new Topology.Probe(name, from, to, every));
            }
        }
        return probes;
    }

    /** {@code every}: whole milliseconds ({@code 200ms}) or seconds ({@code 1s}, {@code 0.5s}), 100ms to 5s. */
    private static Duration probeInterval(YamlChecks checks, YamlNode every) {
        if (every == null) {
            return PROBE_DEFAULT_EVERY;
        }
        String text = checks.scalar(every, null);
        if (text == null) {
            return null;
        }
        Matcher m = PROBE_EVERY.matcher(text);
        Duration interval = null;
        if (m.matches()) {
            interval = m.group(1) != null ? Duration.ofMillis(Long.parseLong(m.group(1)))
                    : Duration.ofMillis(Math.round(Double.parseDouble(m.group(2)) * 1000));
        }
        if (interval == null || interval.compareTo(PROBE_MIN_EVERY) < 0 || interval.compareTo(PROBE_MAX_EVERY) > 0) {
            checks.add(every, "'" + text + "' is not a probe interval: write a time from 100ms to 5s, e.g. 200ms or 1s");
            return null;
        }
        return interval;
    }

    /** A unicast IPv4 address: not 0.x (this host), not multicast, reserved or broadcast (224.0.0.0 and up). */
    static boolean isUnicastIpv4(String text) {
        Matcher m = IPV4.matcher(text);
        if (!m.matches()) {
            return false;
        }
        for (int i = 1; i <= 4; i++) {
            if (Integer.parseInt(m.group(i)) > 255) {
                return false;
            }
        }
        int first = Integer.parseInt(m.group(1));
        return first != 0 && first < 224;
    }

    private static void readNode(YamlChecks checks, String name, YamlNode spec, Map<String, Topology.Node> nodes) {
        if (!NODE_NAME.matcher(name).matches()) {
            checks.add(spec.keyProblem("'" + name + "' is not valid: node names are 1-20 lowercase letters, digits or '-',"
                    + " starting with a letter"));
        }
        if (spec.isScalar() && (spec.text() == null || spec.text().isEmpty())) {
            nodes.put(name, new Topology.Node(name, null, false, Map.of(), Map.of(), List.of(), List.of()));
            return;
        }
        if (!spec.isMap()) {
            checks.add(spec, "expected a mapping of node settings, found " + spec.kind());
            return;
        }
        checks.onlyKeys(spec, NODE_KEYS);
        String kind = checks.text(spec, "kind", "linux", false);
        if (!"linux".equals(kind)) {
            checks.add(spec.get("kind"), "only kind 'linux' is supported, found '" + kind + "'");
        }
        String image = checks.text(spec, "image", null, false);
        boolean hidden = checks.bool(spec, "hidden", false);
        Map<String, String> env = stringMap(checks, spec.get("env"));
        Map<String, String> sysctls = stringMap(checks, spec.get("sysctls"));
        if (spec.get("sysctls") != null) {
            spec.get("sysctls").entries().forEach((key, value) -> {
                if (!SYSCTL.matcher(key).matches()) {
                    checks.add(value.keyProblem("'" + key + "' cannot be set: only network sysctls (net.*) are per lab node"));
                }
            });
        }
        List<String> exec = new ArrayList<>();
        for (YamlNode command : checks.list(spec, "exec", false)) {
            String text = checks.scalar(command, null);
            if (text != null) {
                exec.add(text);
            }
        }
        nodes.put(name, new Topology.Node(name, image, hidden, env, sysctls, exec, readStats(checks, spec, hidden)));
    }

    private static List<String> readStats(YamlChecks checks, YamlNode spec, boolean hidden) {
        YamlNode node = spec.get("stats");
        List<String> patterns = new ArrayList<>();
        for (YamlNode item : checks.list(spec, "stats", false)) {
            String text = checks.scalar(item, null);
            if (text == null) {
                continue;
            }
            if (!IFACE_PATTERN.matcher(text).matches() || text.equals("lo")) {
                checks.add(item, "'" + text + "' is not an interface name or pattern (1-15 letters, digits, '_', '.',"
                        + " '-', and '*' for any characters, e.g. ifb*; lo is never shown)");
            } else {
                patterns.add(text);
            }
        }
        if (node != null && node.isList() && node.items().isEmpty()) {
            checks.add(node, "list the interfaces to show, e.g. [eth2, \"ifb*\"], or leave 'stats' out to show all");
        }
        if (node != null && hidden) {
            checks.add(node, "a hidden node has no terminal and no statistics on the page; remove 'stats' or 'hidden'");
        }
        return patterns;
    }

    private static Map<String, String> stringMap(YamlChecks checks, YamlNode map) {
        Map<String, String> values = new LinkedHashMap<>();
        if (map == null) {
            return values;
        }
        if (!map.isMap()) {
            checks.add(map, "expected a mapping, found " + map.kind());
            return values;
        }
        map.entries().forEach((key, value) -> {
            String text = checks.scalar(value, null);
            if (text != null) {
                values.put(key, text);
            }
        });
        return values;
    }

    private static void readLink(YamlChecks checks, YamlNode link, Map<String, Topology.Node> nodes,
                                 List<Topology.Link> links) {
        if (!link.isMap()) {
            checks.add(link, "expected a link with 'endpoints: [\"a:eth1\", \"b:eth1\"]', found " + link.kind());
            return;
        }
        checks.onlyKeys(link, LINK_KEYS);
        List<YamlNode> ends = checks.list(link, "endpoints", true);
        if (ends.size() != 2) {
            if (link.get("endpoints") != null && link.get("endpoints").isList()) {
                checks.add(link.get("endpoints"), "a link has exactly two endpoints, found " + ends.size());
            }
            return;
        }
        Topology.Endpoint a = readEndpoint(checks, ends.get(0), nodes);
        Topology.Endpoint b = readEndpoint(checks, ends.get(1), nodes);
        if (a == null || b == null) {
            return;
        }
        Set<String> used = new HashSet<>();
        for (Topology.Link existing : links) {
            used.add(existing.a().toString());
            used.add(existing.b().toString());
        }
        for (Topology.Endpoint end : List.of(a, b)) {
            if (!used.add(end.toString())) {
                checks.add(link.get("endpoints"), "interface " + end + " is already used by another link");
            }
        }
        links.add(new Topology.Link(a, b));
    }

    private static Topology.Endpoint readEndpoint(YamlChecks checks, YamlNode end, Map<String, Topology.Node> nodes) {
        String text = checks.scalar(end, null);
        if (text == null) {
            return null;
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            checks.add(end, "an endpoint is 'node:interface', e.g. 'client:eth1'; found '" + text + "'");
            return null;
        }
        String node = text.substring(0, colon);
        String iface = text.substring(colon + 1);
        if (!nodes.containsKey(node)) {
            checks.add(end, "no node named '" + node + "' in topology.nodes (have: " + String.join(", ", nodes.keySet()) + ")");
            return null;
        }
        if (!IFACE_NAME.matcher(iface).matches() || iface.equals("lo")) {
            checks.add(end, "'" + iface + "' is not a usable interface name (1-15 letters, digits, '_', '.', '-'; not lo)");
            return null;
        }
        return new Topology.Endpoint(node, iface);
    }
}
