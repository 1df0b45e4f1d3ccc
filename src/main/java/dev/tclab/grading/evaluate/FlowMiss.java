package dev.tclab.grading.evaluate;

import java.util.Locale;

/**
 * A flow that went through another class than the one a failed expectation reads: the expectation watched a class the
 * flow never entered. Fields a page renders from; {@link #sentence} says it in words.
 *
 * @param load        the iperf3 measurement's name
 * @param flow        the flow's name under {@code flows}, or {@code ""} for a measurement's one flow
 * @param protocol    {@code tcp} or {@code udp}
 * @param serverPort  the port of the platform's one-off server: the flow's destination port, or its source port
 *                    when {@code reverse}
 * @param reverse     the server's node sent the flow ({@code reverse: true})
 * @param tos         the TOS byte its packets carried (0 when the check set none)
 * @param dev         the device of the classes
 * @param wentThrough the leaf class that counted the flow ({@code 1:20})
 * @param byDefault   {@code wentThrough} is where its qdisc sends what no filter matches
 * @param expected    the class the expectation reads ({@code 1:10}); null when it names none
 */
public record FlowMiss(
        String load,
        String flow,
        String protocol,
        int serverPort,
        boolean reverse,
        int tos,
        String dev,
        String wentThrough,
        boolean byDefault,
        String expected) {

    /**
     * "Your flow went through class 1:20 (the default), not 1:10: no filter matched its TCP packets to destination port
     * 24817."
     */
    public String sentence() {
        StringBuilder text = new StringBuilder("Your flow");
        if (!flow.isEmpty()) {
            text.append(' ').append(flow);
        }
        text.append(" went through class ").append(wentThrough);
        if (byDefault) {
            text.append(" (the default)");
        }
        if (expected != null) {
            text.append(", not ").append(expected);
        }
        String packets = protocol.toUpperCase(Locale.ROOT) + " packets "
                + (reverse ? "from source port " : "to destination port ") + serverPort
                + (tos == 0 ? "" : String.format(" with TOS 0x%02x", tos));
        return text.append(
                        byDefault
                                ? ": no filter matched its " + packets + "."
                                : " (a filter sent its " + packets + " there).")
                .toString();
    }
}
