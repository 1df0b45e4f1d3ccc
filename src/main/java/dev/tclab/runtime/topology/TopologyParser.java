package dev.tclab.runtime.topology;

import dev.tclab.yaml.Checked;
import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a lab.yml: a subset of containerlab's topology format ({@code name}, {@code topology.nodes} with
 * {@code kind: linux}, {@code image}, {@code env}, {@code exec}; {@code topology.links[].endpoints}), plus
 * {@code hidden} (no learner terminal), {@code sysctls}, {@code stats} (the interfaces whose statistics the page
 * shows) and the top-level {@code probes} (latency the page plots). Its form is docs/schema/lab.schema.json; the
 * rules across fields (links and probes naming nodes, interfaces used once, probe intervals) are checked here. Every
 * problem is reported with file, line and field.
 */
public final class TopologyParser {

    static final YamlSchema SCHEMA = YamlSchema.load("lab.schema.json");
    /** Dotted-quad IPv4 without leading zeros (ping would read {@code 010} as octal). */
    static final Pattern IPV4 = Pattern.compile(
            "(0|[1-9][0-9]{0,2})\\.(0|[1-9][0-9]{0,2})\\.(0|[1-9][0-9]{0,2})" + "\\.(0|[1-9][0-9]{0,2})");

    static final Pattern PROBE_EVERY = Pattern.compile("([0-9]{1,5})ms|([0-9]{1,2}(?:\\.[0-9]{1,3})?)s");
    static final Duration PROBE_MIN_EVERY = Duration.ofMillis(100);
    static final Duration PROBE_MAX_EVERY = Duration.ofSeconds(5);
    static final Duration PROBE_DEFAULT_EVERY = Duration.ofMillis(200);

    /** lab.yml as written, bound from the schema-valid tree. */
    record LabFile(String name, String kernel, TopologyFile topology, List<ProbeFile> probes) {}

    record TopologyFile(Map<String, NodeFile> nodes, List<LinkFile> links) {}

    /** {@code hidden} may be true/false or yes/no. */
    record NodeFile(
            String kind,
            String image,
            String hidden,
            Map<String, String> env,
            Map<String, String> sysctls,
            List<String> exec,
            List<String> stats) {}

    record LinkFile(List<String> endpoints) {}

    record ProbeFile(String name, String from, String to, String every) {}

    private TopologyParser() {}

    public static Topology parse(String file, String text) throws TopologyException {
        Checked checked;
        try {
            checked = SCHEMA.check(YamlDocument.parse(file, "this file", text, 1));
        } catch (YamlException e) {
            throw new TopologyException(e.problems());
        }
        YamlDocument doc = checked.doc();
        List<FileProblem> problems = new ArrayList<>(checked.problems());
        // Each part that fits the schema is bound and held to the rules, even when another part does not.
        Map<String, Topology.Node> nodes = new LinkedHashMap<>();
        Set<String> nodeNames = new LinkedHashSet<>();
        doc.at("/topology/nodes").fieldNames().forEachRemaining(nodeNames::add);
        for (String name : nodeNames) {
            String at = YamlDocument.child("/topology/nodes", name);
            if (checked.fits(at) || doc.at(at).isNull()) {
                nodes.put(name, node(doc, name, doc.bind(at, NodeFile.class), problems));
            }
        }
        List<Topology.Link> links = new ArrayList<>();
        for (int i = 0; i < doc.at("/topology/links").size(); i++) {
            String at = "/topology/links/" + i;
            if (checked.fits(at)) {
                link(doc, at + "/endpoints", doc.bind(at, LinkFile.class).endpoints(), nodeNames, links, problems);
            }
        }
        List<Topology.Probe> probes = new ArrayList<>();
        Set<String> probeNames = new HashSet<>();
        for (int i = 0; i < doc.at("/probes").size(); i++) {
            String at = "/probes/" + i;
            if (checked.fits(at)) {
                probe(doc, at, doc.bind(at, ProbeFile.class), nodeNames, probeNames, problems)
                        .ifPresent(probes::add);
            }
        }
        if (!problems.isEmpty()) {
            problems.sort(Comparator.comparingInt(FileProblem::line));
            throw new TopologyException(problems);
        }
        Topology.Kernel kernel = doc.root().hasNonNull("kernel")
                ? Topology.Kernel.valueOf(doc.root().get("kernel").asText().toUpperCase(Locale.ROOT))
                : Topology.Kernel.HOST;
        return new Topology(doc.root().get("name").asText(), nodes, links, probes, kernel);
    }

    private static Topology.Node node(YamlDocument doc, String name, NodeFile spec, List<FileProblem> problems) {
        if (spec == null) {
            return new Topology.Node(name, null, false, Map.of(), Map.of(), List.of(), List.of());
        }
        boolean hidden = "true".equals(spec.hidden()) || "yes".equals(spec.hidden());
        if (spec.stats() != null && hidden) {
            problems.add(doc.problem(
                    YamlDocument.child("/topology/nodes/" + name, "stats"),
                    "a hidden node has no" + " terminal and no statistics on the page; remove 'stats' or 'hidden'"));
        }
        return new Topology.Node(
                name,
                spec.image(),
                hidden,
                orEmpty(spec.env()),
                orEmpty(spec.sysctls()),
                orEmpty(spec.exec()),
                orEmpty(spec.stats()));
    }

    private static void link(
            YamlDocument doc,
            String at,
            List<String> ends,
            Set<String> nodes,
            List<Topology.Link> links,
            List<FileProblem> problems) {
        List<Topology.Endpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < ends.size(); i++) {
            String text = ends.get(i);
            String node = text.substring(0, text.indexOf(':'));
            if (!nodes.contains(node)) {
                problems.add(doc.problem(
                        at + "/" + i,
                        "no node named '" + node + "' in topology.nodes (have: " + String.join(", ", nodes) + ")"));
                return;
            }
            endpoints.add(new Topology.Endpoint(node, text.substring(text.indexOf(':') + 1)));
        }
        Set<String> used = new HashSet<>();
        for (Topology.Link existing : links) {
            used.add(existing.a().toString());
            used.add(existing.b().toString());
        }
        for (Topology.Endpoint end : endpoints) {
            if (!used.add(end.toString())) {
                problems.add(doc.problem(at, "interface " + end + " is already used by another link"));
            }
        }
        links.add(new Topology.Link(endpoints.get(0), endpoints.get(1)));
    }

    private static Optional<Topology.Probe> probe(
            YamlDocument doc,
            String at,
            ProbeFile probe,
            Set<String> nodes,
            Set<String> names,
            List<FileProblem> problems) {
        int before = problems.size();
        if (!names.add(probe.name())) {
            problems.add(doc.problem(
                    at + "/name", "another probe is already named '" + probe.name() + "'; give each its own name"));
        }
        if (!nodes.contains(probe.from())) {
            problems.add(doc.problem(
                    at + "/from",
                    "no node named '" + probe.from() + "' in topology.nodes (have: " + String.join(", ", nodes) + ")"));
        }
        if (!isUnicastIpv4(probe.to())) {
            problems.add(doc.problem(
                    at + "/to",
                    "'" + probe.to() + "' is not an IPv4 address of a lab node: write"
                            + " one address, e.g. 198.51.100.10 (no host name, no broadcast or multicast address)"));
        }
        Duration every = probeInterval(probe.every());
        if (every == null) {
            problems.add(doc.problem(
                    at + "/every",
                    "'" + probe.every() + "' is not a probe interval: write a time"
                            + " from 100ms to 5s, e.g. 200ms or 1s"));
        }
        return problems.size() > before
                ? Optional.empty()
                : Optional.of(new Topology.Probe(probe.name(), probe.from(), probe.to(), every));
    }

    /** {@code every}: whole milliseconds ({@code 200ms}) or seconds ({@code 1s}, {@code 0.5s}), 100ms to 5s. */
    private static Duration probeInterval(String text) {
        if (text == null) {
            return PROBE_DEFAULT_EVERY;
        }
        Matcher m = PROBE_EVERY.matcher(text);
        if (!m.matches()) {
            return null;
        }
        Duration interval = m.group(1) != null
                ? Duration.ofMillis(Long.parseLong(m.group(1)))
                : Duration.ofMillis(Math.round(Double.parseDouble(m.group(2)) * 1000));
        return interval.compareTo(PROBE_MIN_EVERY) < 0 || interval.compareTo(PROBE_MAX_EVERY) > 0 ? null : interval;
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

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }
}
