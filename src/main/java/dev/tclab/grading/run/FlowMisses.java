package dev.tclab.grading.run;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowMiss;
import dev.tclab.grading.evaluate.FlowRoute;
import dev.tclab.grading.evaluate.Reason;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.ClassesMeasurement;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.ValuePath;
import java.util.List;
import java.util.Optional;

/**
 * Tells a failed expectation on a class ({@code c.by_id[1:10].delta.borrowed}) where its load's flow went when it did
 * not go through that class: the class the flow's sender counted it in, on the same device (issue 40).
 */
final class FlowMisses {

    private FlowMisses() {}

    /** {@code assertions}, each failed one on a class its load's flows never entered saying where they went. */
    static List<AssertionResult> attach(CheckSpec spec, List<AssertionResult> assertions, List<FlowRoute> routes) {
        if (routes.isEmpty()) {
            return assertions;
        }
        return assertions.stream().map(a -> attach(spec, a, routes)).toList();
    }

    private static AssertionResult attach(CheckSpec spec, AssertionResult a, List<FlowRoute> routes) {
        if (!a.children().isEmpty()) {
            List<AssertionResult> children = attach(spec, a.children(), routes);
            return new AssertionResult(
                    a.path(),
                    a.measured(),
                    a.number(),
                    a.unit(),
                    a.ratio(),
                    a.expected(),
                    a.passed(),
                    a.message(),
                    children,
                    a.reason());
        }
        Reason reason = a.reason();
        if (a.passed()
                || reason == null
                || (reason.kind() != Reason.Kind.NOT_MET && reason.kind() != Reason.Kind.NO_VALUE)) {
            return a;
        }
        return miss(spec, reason, routes)
                .map(m -> a.withReason(reason.withFlow(m)))
                .orElse(a);
    }

    /** The first flow miss in {@code a} or its members. */
    static Optional<FlowMiss> of(AssertionResult a) {
        if (a.reason() != null && a.reason().flow() != null) {
            return Optional.of(a.reason().flow());
        }
        return a.children().stream()
                .map(FlowMisses::of)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * Where the flow went when the expectation reads a class of a {@code classes} measurement ({@code by_id[ID]}) that
     * the load it runs over, during or after sent no flow through, on that measurement's node and device.
     */
    private static Optional<FlowMiss> miss(CheckSpec spec, Reason reason, List<FlowRoute> routes) {
        Optional<ValuePath> path = ValuePath.parse(reason.path());
        Optional<Measurement> read = spec.measurements().stream()
                .filter(m -> m.name().equals(reason.measurement()))
                .findFirst();
        if (path.isEmpty() || read.isEmpty() || !(read.get() instanceof ClassesMeasurement classes)) {
            return Optional.empty();
        }
        List<String> segments = path.get().segments();
        String expected = segments.size() > 2 && segments.get(1).equals("by_id") ? segments.get(2) : null;
        Optional<String> load = loadOf(spec, classes);
        if (expected == null || load.isEmpty()) {
            return Optional.empty();
        }
        for (FlowRoute route : routes) {
            if (!route.load().equals(load.get()) || !route.node().equals(classes.node())) {
                continue;
            }
            List<FlowRoute.Counted> leaves = route.leafClassesOn(classes.dev());
            if (leaves.isEmpty() || leaves.stream().anyMatch(c -> c.id().equals(expected))) {
                continue;
            }
            FlowRoute.Counted went = leaves.get(0);
            return Optional.of(new FlowMiss(
                    route.load(),
                    route.flow(),
                    route.protocol(),
                    route.serverPort(),
                    route.reverse(),
                    route.tos(),
                    went.dev(),
                    went.id(),
                    went.byDefault(),
                    expected));
        }
        return Optional.empty();
    }

    /** The load a read belongs to: the one it runs over or during, else the last one listed before it. */
    private static Optional<String> loadOf(CheckSpec spec, Measurement read) {
        if (read.over() != null) {
            return Optional.of(read.over());
        }
        if (read.during() != null) {
            return Optional.of(read.during());
        }
        List<Measurement> all = spec.measurements();
        return all.subList(0, all.indexOf(read)).stream()
                .filter(Measurement::load)
                .map(Measurement::name)
                .reduce((first, second) -> second);
    }
}
