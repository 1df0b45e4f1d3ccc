package dev.tclab.grading.evaluate;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Why an expectation holds or not, as fields a page renders from (the sentences of {@link AssertionResult} stay for
 * people, and may be reworded).
 *
 * @param kind        what happened (see {@link Kind})
 * @param measurement the measurement the value comes from ({@code up}), or {@code baseline}
 * @param subject     what was measured in the lesson's terms ("the client's upload")
 * @param path        the value path ({@code up.mbps})
 * @param comparison  {@code equals}, {@code near}, {@code between}, {@code bounds} or {@code matches}
 * @param expected    the expectation in the learner's units ("about 10 Mbit/s (± 15 %)", "above 1.5 times")
 * @param measured    the measured value in the learner's units ("26.9 Gbit/s", "noqueue", "99 borrows"); null when
 *                    there is none
 * @param unit        the unit of the measured number, or what it counts ("borrows"); empty for text and plain numbers
 * @param ratioTo     with {@code ratio_to}: what the value is divided by, in the lesson's terms; null otherwise
 * @param baseline    with {@code ratio_to}: that other value in the learner's units; null otherwise
 * @param error       why there is no value (the measurement's error, or why it was not measured); null otherwise
 * @param authored    the result's message is the author's and tells this outcome ({@link Evaluator#inAuthorsWords})
 * @param before      with a {@code delta} path: the counter read before the load, in the learner's units ("10
 *                    borrows"); null otherwise
 * @param after       with a {@code delta} path: the counter read after the load; null otherwise
 * @param flow        when the expectation failed on a class its load's flow never entered: where the flow went
 *                    instead; null otherwise (and in results kept before it existed)
 */
public record Reason(
        Kind kind,
        String measurement,
        String subject,
        String path,
        String comparison,
        String expected,
        String measured,
        String unit,
        String ratioTo,
        String baseline,
        String error,
        boolean authored,
        String before,
        String after,
        FlowMiss flow) {

    /** This reason, saying where its load's flow went instead. */
    public Reason withFlow(FlowMiss miss) {
        return new Reason(
                kind,
                measurement,
                subject,
                path,
                comparison,
                expected,
                measured,
                unit,
                ratioTo,
                baseline,
                error,
                authored,
                before,
                after,
                miss);
    }

    /** What happened to an expectation; in JSON as the lowercase name ({@code not_met}). */
    public enum Kind {
        /** The value meets the expectation. */
        HELD,
        /** The value was measured and does not meet it. */
        NOT_MET,
        /** The measurement ran but has nothing at the path (no such qdisc, class, field). */
        NO_VALUE,
        /** The measurement failed (iperf3's error, a command that timed out, output that could not be read). */
        MEASUREMENT_FAILED,
        /** Not measured: what the check reads first already fails, so its loads were skipped. */
        SKIPPED,
        /** The value cannot be compared that way (text against a number, a ratio of different dimensions). */
        NOT_COMPARABLE,
        /** The value it is divided by is missing or zero. */
        NO_RATIO;

        @JsonValue
        public String json() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
