package dev.tclab.lesson;

import dev.tclab.lesson.markdown.BlockContext;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.yaml.FileProblem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Lints for what a platform change broke under lessons written before it (docs/authoring.md, "Compatibility"): each
 * warning names a line whose lesson validates but probably grades other than its author meant. A warning does not
 * make the lesson broken. They read the lesson as validation renders it (each parameter at its first choice, every
 * guarded block kept).
 */
public final class LessonWarnings {

    /** How many flows a warning names before it counts the rest. */
    private static final int NAMED = 3;

    private final Topology topology;
    private final List<CheckMeasurement> measurements;
    private final List<GradedFlows.Flow> flows;
    private final List<BlockContext.CommandLine> commands;
    private final Map<String, Integer> stepIndex;
    private final Map<String, String> owners;

    private LessonWarnings(Topology topology, LessonView view) {
        this.topology = topology;
        this.measurements = CheckMeasurement.of(view);
        this.flows = GradedFlows.of(measurements);
        this.commands = view.commandLines();
        this.stepIndex = new HashMap<>();
        for (int i = 0; i < view.steps().size(); i++) {
            stepIndex.put(view.steps().get(i).id(), i);
        }
        this.owners = topology.addressOwners();
    }

    /** The warnings of a lesson whose lab.yml reads, sorted by file and line. */
    public static List<FileProblem> of(Topology topology, LessonView view) {
        LessonWarnings lints = new LessonWarnings(topology, view);
        List<FileProblem> warnings = new ArrayList<>();
        lints.unportedFlowsPastPortFilters(warnings);
        lints.fixedPortsTakenByTheLab(warnings);
        lints.flowsToTheirOwnNode(warnings);
        lints.serverAddressesMoved(warnings);
        warnings.addAll(SidecarCommands.warnings(lints.measurements, lints.nodePaths()));
        warnings.sort(Comparator.comparing(FileProblem::file).thenComparingInt(FileProblem::line));
        return warnings;
    }

    /**
     * A filter that classifies by port, on a node that flows without {@code port} (nor {@code tos}/{@code dscp})
     * cross, in checks of its step or a later one. Since checks run each flow against a one-off server on a random
     * port, such a filter never sees those flows.
     */
    private void unportedFlowsPastPortFilters(List<FileProblem> warnings) {
        Set<String> ends = new HashSet<>();
        flows.forEach(f -> {
            ends.add(f.node());
            Optional.ofNullable(owners.get(f.server())).ifPresent(ends::add);
        });
        for (BlockContext.CommandLine command : commands) {
            Optional<PortFilter> filter = PortFilter.in(command.text());
            if (filter.isEmpty()) {
                continue;
            }
            int from = stepIndex.getOrDefault(command.stepId(), -1);
            String node = command.node();
            List<GradedFlows.Flow> missed = flows.stream()
                    .filter(f -> f.port() == null && !f.marked() && f.step() >= from)
                    .filter(f -> node.equals(f.node()) || node.equals(owners.get(f.server())) || !ends.contains(node))
                    .toList();
            if (!missed.isEmpty()) {
                warnings.add(warning(
                        command,
                        "this filter classifies by port (" + filter.get().match() + ") on node " + node + ", but "
                                + named(missed) + (missed.size() == 1 ? " gives" : " give") + " no port: a check's flow"
                                + " runs against a one-off server on a random port from 20000-29999, so this filter"
                                + " does not see it. Give the check's iperf3 `port: "
                                + filter.get().port() + "`"
                                + portClash(missed, filter.get().port())
                                + ", or classify by `tos`/`dscp`, which the check can set (docs/checks.md,"
                                + " \"Several flows at once\")"));
            }
        }
    }

    /** What else the suggested port needs when a lab server of a missed flow's server node listens on it. */
    private String portClash(List<GradedFlows.Flow> missed, int port) {
        return missed.stream()
                .map(f -> owners.get(f.server()))
                .filter(owner -> owner != null && labServerOn(owner, port).isPresent())
                .findFirst()
                .map(owner -> " (and start node " + owner + "'s own `"
                        + labServerOn(owner, port).get() + "` in lab.yml on another port, e.g. `-p " + (port + 1)
                        + "`)")
                .orElse("");
    }

    /** A flow's fixed port that the lab's own iperf3 server on the flow's server node listens on. */
    private void fixedPortsTakenByTheLab(List<FileProblem> warnings) {
        for (GradedFlows.Flow flow : flows) {
            String owner = owners.get(flow.server());
            if (flow.port() == null || owner == null) {
                continue;
            }
            labServerOn(owner, flow.port())
                    .ifPresent(server -> warnings.add(new FileProblem(
                            flow.file(),
                            flow.portLine(),
                            "",
                            "port " + flow.port() + " of " + flow.title()
                                    + " is the port node " + owner + "'s own `" + server
                                    + "` (lab.yml exec) listens on,"
                                    + " so the check's one-off server cannot listen there and the measurement fails."
                                    + " Start that server on another port (`-p " + (flow.port() + 1) + "`), or give"
                                    + " the check another port")));
        }
    }

    /** A flow whose server address lab.yml gives to the client's own node: it never crosses a link of the lab. */
    private void flowsToTheirOwnNode(List<FileProblem> warnings) {
        for (GradedFlows.Flow flow : flows) {
            if (flow.node().equals(owners.get(flow.server()))) {
                warnings.add(new FileProblem(
                        flow.file(),
                        flow.line(),
                        "",
                        "iperf3 '" + flow.name() + "' runs on node " + flow.node() + " against " + flow.server()
                                + ", which lab.yml gives to " + flow.node() + " itself: the flow never crosses a link"
                                + " of the lab, so the platform fails the measurement (docs/SECURITY.md, \"A"
                                + " measurement proves it crossed the link\"). Measure against an address of"
                                + " another node"));
            }
        }
    }

    /** A command that adds a check's server address to a node other than the one lab.yml gives it to. */
    private void serverAddressesMoved(List<FileProblem> warnings) {
        for (BlockContext.CommandLine command : commands) {
            Optional<String> address = Topology.addedAddress(command.text());
            String owner = address.map(owners::get).orElse(null);
            if (owner == null || owner.equals(command.node())) {
                continue;
            }
            List<GradedFlows.Flow> served =
                    flows.stream().filter(f -> f.server().equals(address.get())).toList();
            if (!served.isEmpty()) {
                warnings.add(warning(
                        command,
                        "this puts " + address.get() + " on node " + command.node() + ", but lab.yml gives it to node "
                                + owner + " and " + named(served) + " measures against it: a check's server must run"
                                + " where lab.yml puts its address, so the measurement fails while " + command.node()
                                + " holds it (docs/SECURITY.md, \"A measurement proves it crossed the link\"). Use"
                                + " another address here"));
            }
        }
    }

    /** Where the lesson's own commands name each path of a node's files: cmd and solution lines, lab.yml exec. */
    private Map<String, String> nodePaths() {
        Map<String, String> paths = new HashMap<>();
        topology.nodes()
                .values()
                .forEach(node -> node.exec()
                        .forEach(command -> SidecarCommands.paths(command)
                                .forEach(path -> paths.putIfAbsent(path, "lab.yml exec of node " + node.name()))));
        commands.forEach(command -> SidecarCommands.paths(command.text())
                .forEach(path -> paths.putIfAbsent(path, command.file() + ":" + command.line())));
        return paths;
    }

    private Optional<String> labServerOn(String node, int port) {
        Topology.Node n = topology.nodes().get(node);
        return n == null
                ? Optional.empty()
                : Optional.ofNullable(LabIperfServers.of(n).get(port));
    }

    private static String named(List<GradedFlows.Flow> flows) {
        String names =
                flows.stream().limit(NAMED).map(GradedFlows.Flow::described).collect(Collectors.joining("; "));
        return flows.size() > NAMED ? names + " and " + (flows.size() - NAMED) + " more" : names;
    }

    private static FileProblem warning(BlockContext.CommandLine command, String message) {
        return new FileProblem(command.file(), command.line(), "", message);
    }
}
