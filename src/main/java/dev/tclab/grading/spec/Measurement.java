package dev.tclab.grading.spec;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.tclab.runtime.ExecResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of a check's {@code measure} list, validated: one record per kind, each owning its options (typed), the
 * command line the platform runs, its timeout, how its output is read and the fields (with units) its result has.
 * Adding a kind is one record (with its options record) plus one line in {@link #KINDS}, and its entry in
 * docs/schema/check.schema.json.
 */
public sealed interface Measurement
        permits Iperf3Measurement, PingMeasurement, TcMeasurement, InterfacesMeasurement, CommandMeasurement {

    /**
     * What every measurement has, whatever its kind.
     *
     * @param during the name of an earlier load this one runs during (once, while the load runs), or null
     * @param over   the name of an earlier load this one is read around (before it starts and after it ends, giving
     *               counter deltas and per-second rates over it), or null; counter kinds only
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Common(String name, String node, String during, String over) {}

    /**
     * Makes one kind's measurement from its options, bound by Jackson from the schema-valid check block, checking
     * the rules the schema cannot state.
     *
     * @param <O> the kind's options record (its keys are the kind's keys in docs/schema/check.schema.json)
     */
    @FunctionalInterface
    interface Factory<O> {
        /** The measurement, or null when its options break a rule (recorded through {@code reader}). */
        Measurement create(Common common, O options, OptionReader reader);
    }

    /**
     * A kind: the YAML key that introduces it, its options record and how it is made from them.
     *
     * @param beside whether its options sit beside the key in the entry ({@code command: ..., parse: json}) rather
     *               than under it ({@code ping: { target: ... }})
     */
    record Kind<O>(String key, Class<O> options, boolean beside, Factory<O> factory) {}

    /** Every kind, in the order messages list them. */
    List<Kind<?>> KINDS = List.of(
            new Kind<>("iperf3", Iperf3Measurement.Options.class, false, Iperf3Measurement::of),
            new Kind<>("ping", PingMeasurement.Options.class, false, PingMeasurement::of),
            new Kind<>("qdisc", QdiscMeasurement.Options.class, false, QdiscMeasurement::of),
            new Kind<>("classes", ClassesMeasurement.Options.class, false, ClassesMeasurement::of),
            new Kind<>("filters", FiltersMeasurement.Options.class, false, FiltersMeasurement::of),
            new Kind<>("interfaces", InterfacesMeasurement.Options.class, false, InterfacesMeasurement::of),
            new Kind<>("command", CommandMeasurement.Options.class, true, CommandMeasurement::of));

    Common common();

    /** The YAML key of its kind ({@code iperf3}, {@code qdisc}, ...). */
    String kind();

    /** The command line the platform runs in the node's measurement sidecar (for iperf3: see the record). */
    List<String> argv();

    /** How long the command may run before it is stopped and the measurement fails as timed out. */
    Duration timeout();

    /** The value tree of a finished run, or the reason it failed in words for the learner. */
    MeasurementOutcome read(ExecResult exec);

    /** The top-level fields of its result (what a value path may name after the measurement). */
    Map<String, Unit> fields();

    /**
     * The unit of the value at {@code path} (whose field is one of {@link #fields()}), or empty when it cannot be
     * known before the run.
     */
    Optional<Unit> unitAt(ValuePath path);

    /**
     * How long it runs when all goes well: a load's or a ping's own length; a read of counters or a command, none
     * (what the learner is told to expect while a check measures, never a timeout).
     */
    default Duration runTime() {
        return Duration.ZERO;
    }

    /** Whether it loads the link: it takes measurement slots, and others may run during or over it. */
    default boolean load() {
        return false;
    }

    /** The measurement slots it takes while it runs (loads only). */
    default int slots() {
        return 0;
    }

    /** Why {@code path} (whose field is one of {@link #fields()}) cannot exist in its result, if it cannot. */
    default Optional<String> pathProblem(ValuePath path) {
        return Optional.empty();
    }

    /**
     * Whether it reads counters that can be compared before and after a load ({@code over}): the kinds whose result
     * then has the window the deltas cover ({@link Counters#WINDOW}).
     */
    default boolean counters() {
        return fields().containsKey(Counters.WINDOW);
    }

    default String name() {
        return common().name();
    }

    default String node() {
        return common().node();
    }

    default String during() {
        return common().during();
    }

    default String over() {
        return common().over();
    }
}
