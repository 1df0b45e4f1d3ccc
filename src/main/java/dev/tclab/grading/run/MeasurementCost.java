package dev.tclab.grading.run;

import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.Comparison;
import dev.tclab.grading.spec.Iperf3Measurement;
import dev.tclab.grading.spec.Measure;
import dev.tclab.grading.spec.Measurement;
import dev.tclab.grading.spec.Quantity;
import dev.tclab.grading.spec.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one throughput measurement costs this host, as a share of a measurement slot, and the rate the platform
 * caps its flow at when the check allows one.
 * <p>
 * A slot is what one uncapped iperf3 flow takes: a flow at line rate through a veth pair keeps a core busy (measured
 * 0.34 to 0.76 of a core in the two lab containers alone, see docs/checks.md). A flow through a 10 Mbit/s shaper costs
 * about 1/20 of that, but the platform cannot trust the shaper: the learner is root and may remove it. What it can
 * trust is a rate it enforces itself. When every passing outcome of the check needs the goodput at or below some
 * value H (an upper bound: {@code below}, {@code near}, {@code between} on {@code mbps} or {@code bits_per_second}),
 * the flow is capped at {@link #CAP_FACTOR} × H with iperf3's {@code -b}: a flow reaching the cap measures above H
 * and fails as it would have uncapped, and one below it is not slowed. A UDP flow's rate is its {@code bitrate}
 * (iperf3's 1 Mbit/s when none is given). Such a flow costs {@code rate / slotRate} of a slot, at least
 * {@link #MIN_PARTS} parts; any other flow takes a whole slot. In a lab with a kernel of its own a flow costs at least a
 * quarter of a slot ({@link #inOwnKernel}).
 *
 * @param parts          share of a slot, in {@link #PARTS_PER_SLOT}ths
 * @param capBitsPerSecond the {@code -b} the platform adds to a TCP flow, or empty when it runs uncapped
 */
public record MeasurementCost(int parts, OptionalDouble capBitsPerSecond) {

    public static final int PARTS_PER_SLOT = 100;
    /**
     * The least a flow costs: the exec, the iperf3 processes and their pacing timers (a capped 22 Mbit/s flow
     * measured 0.03 to 0.05 of a core here, about 1/20 of a line-rate flow).
     */
    static final int MIN_PARTS = 5;
    /** The least a flow costs in a lab with a kernel of its own ({@link #inOwnKernel}): a quarter of a slot. */
    static final int OWN_KERNEL_PARTS = 25;
    /** The cap is this multiple of the highest goodput that passes, far above it so it never slows a passing flow. */
    static final double CAP_FACTOR = 2;
    /** iperf3's own UDP rate when no {@code -b} is given. */
    private static final double IPERF3_UDP_DEFAULT_BITS = 1e6;
    /** A capped flow measuring at least this share of its cap probably went faster than the cap allowed it. */
    private static final double REACHED_CAP = 0.9;

    /** A whole slot, no cap: a flow whose rate nothing the platform controls bounds. */
    public static final MeasurementCost FULL = new MeasurementCost(PARTS_PER_SLOT, OptionalDouble.empty());

    /**
     * The cost of {@code load} (an iperf3 measurement of {@code spec}) when one slot buys {@code slotBitsPerSecond}
     * of capped flows.
     */
    public static MeasurementCost of(CheckSpec spec, Measurement load, double slotBitsPerSecond) {
        // Several flows take a whole slot each; with parallel streams, iperf3 would apply -b to each stream.
        if (!(load instanceof Iperf3Measurement iperf)
                || iperf.flows().size() != 1
                || iperf.flows().get(0).parallel() > 1) {
            return FULL;
        }
        Iperf3Measurement.Flow flow = iperf.flows().get(0);
        if (flow.udp()) {
            double bits = flow.bitrate() != null ? flow.bitrate() : IPERF3_UDP_DEFAULT_BITS;
            return new MeasurementCost(parts(bits, slotBitsPerSecond), OptionalDouble.empty());
        }
        OptionalDouble highest = highestPassingGoodput(spec.expect(), iperf);
        if (highest.isEmpty() || highest.getAsDouble() <= 0) {
            return FULL;
        }
        double cap = CAP_FACTOR * highest.getAsDouble();
        return new MeasurementCost(parts(cap, slotBitsPerSecond), OptionalDouble.of(cap));
    }

    private static int parts(double bits, double slotBitsPerSecond) {
        double share = Math.ceil(PARTS_PER_SLOT * bits / slotBitsPerSecond);
        return (int) Math.max(MIN_PARTS, Math.min(PARTS_PER_SLOT, share));
    }

    /**
     * The lowest upper bound that assertions every passing sample must meet put on {@code load}'s goodput, in bit/s.
     * Only top-level assertions and {@code all_of} members count: in an {@code any_of} another branch may pass
     * instead. Ratios to a baseline do not count either.
     */
    static OptionalDouble highestPassingGoodput(List<Assertion> assertions, Measurement load) {
        OptionalDouble lowest = OptionalDouble.empty();
        for (Assertion assertion : assertions) {
            OptionalDouble bound = OptionalDouble.empty();
            if (assertion instanceof Assertion.AllOf all) {
                bound = highestPassingGoodput(all.children(), load);
            } else if (assertion instanceof Assertion.Check check) {
                bound = upperBound(check, load);
            }
            if (bound.isPresent() && (lowest.isEmpty() || bound.getAsDouble() < lowest.getAsDouble())) {
                lowest = bound;
            }
        }
        return lowest;
    }

    private static OptionalDouble upperBound(Assertion.Check check, Measurement load) {
        List<String> segments = check.path().segments();
        if (check.ratioTo() != null || segments.size() != 2 || !segments.get(0).equals(load.name())) {
            return OptionalDouble.empty();
        }
        Optional<Unit> unit = Optional.ofNullable(load.fields().get(segments.get(1)))
                .filter(u -> segments.get(1).equals("mbps") || segments.get(1).equals("bits_per_second"));
        if (unit.isEmpty()) {
            return OptionalDouble.empty();
        }
        Comparison c = check.comparison();
        Quantity high = c instanceof Comparison.Bounds bounds
                ? bounds.below()
                : c instanceof Comparison.Between between
                        ? between.high()
                        : c instanceof Comparison.Equals equals ? equals.quantity() : null;
        if (c instanceof Comparison.Near near) {
            double target = near.target().in(unit.get());
            return OptionalDouble.of(unit.get().toBase(target + near.within().allowance(target, unit.get())));
        }
        return high == null
                ? OptionalDouble.empty()
                : OptionalDouble.of(unit.get().toBase(high.in(unit.get())));
    }

    /**
     * This flow's cost in a lab with a kernel of its own (User-Mode Linux): at least {@link #OWN_KERNEL_PARTS} of a
     * slot at any rate, with the same cap. There every packet is moved by a kernel the host runs as a process: under
     * UML 6.1's ptrace a 4 Mbit/s shaped flow cost the host 2.5 to 4.5 core-seconds in 10 s, where the same flow in a
     * Docker lab costs 0.33, and 30 learners checking a UML lesson at once got the verdicts of a learner alone only at a
     * whole slot (25 of 30 wrong at 1/20, 27 of 30 failed at a quarter). UML 7.2 in seccomp mode, the lab image's
     * kernel, costs about a quarter of that: at a quarter of a slot the same class got 30 of 30 as alone on both steps,
     * pressed to verdict p95 41 s against 123 s at a whole slot (docs/BENCHMARKS.md, "UML 7.2 in seccomp mode").
     */
    MeasurementCost inOwnKernel() {
        return new MeasurementCost(Math.max(parts, OWN_KERNEL_PARTS), capBitsPerSecond);
    }

    /** {@code argv} of the iperf3 client with the cap added, when there is one. */
    List<String> applyTo(List<String> argv) {
        if (capBitsPerSecond.isEmpty()) {
            return argv;
        }
        List<String> capped = new ArrayList<>(argv);
        capped.addAll(List.of("-b", String.valueOf(Math.round(capBitsPerSecond.getAsDouble()))));
        return capped;
    }

    /** Whether a flow that measured {@code goodputBits} probably ran into its cap (so the link may be faster). */
    boolean reachedBy(double goodputBits) {
        return capBitsPerSecond.isPresent() && goodputBits >= REACHED_CAP * capBitsPerSecond.getAsDouble();
    }

    /** The cap in words, for the learner: {@code 22.4 Mbit/s}. */
    String capText() {
        return new Measure(capBitsPerSecond.orElse(0) / 1e6, Unit.MBIT_PER_S).toString();
    }
}
