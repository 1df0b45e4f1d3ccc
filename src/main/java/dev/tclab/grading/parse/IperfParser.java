package dev.tclab.grading.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Parses {@code iperf3 -J} output (TCP, UDP, {@code -R}; the {@code error} key on failure). */
public final class IperfParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private IperfParser() {}

    public static IperfResult parse(String json) throws OutputParseException {
        JsonNode root = readObject(json);
        JsonNode start = root.path("start").path("test_start");
        boolean udp = "UDP".equalsIgnoreCase(start.path("protocol").asText(""));
        boolean reverse = start.path("reverse").asInt(0) == 1;
        if (root.hasNonNull("error")) {
            return new IperfResult(
                    0,
                    0,
                    0,
                    0,
                    null,
                    null,
                    null,
                    udp,
                    reverse,
                    root.get("error").asText());
        }
        JsonNode end = root.path("end");
        if (udp) {
            // UDP has one "sum" (the receiver's view, reported back to the client) in iperf 3.12.
            JsonNode sum = end.has("sum_received") ? end.get("sum_received") : end.path("sum");
            require(sum, "end.sum (UDP)", json);
            return new IperfResult(
                    sum.path("bits_per_second").asDouble(),
                    end.path("sum_sent")
                            .path("bits_per_second")
                            .asDouble(sum.path("bits_per_second").asDouble()),
                    sum.path("seconds").asDouble(),
                    sum.path("bytes").asLong(),
                    null,
                    sum.path("lost_percent").asDouble(),
                    sum.path("jitter_ms").asDouble(),
                    true,
                    reverse,
                    null);
        }
        JsonNode received = end.path("sum_received");
        JsonNode sent = end.path("sum_sent");
        require(received, "end.sum_received", json);
        return new IperfResult(
                received.path("bits_per_second").asDouble(),
                sent.path("bits_per_second").asDouble(),
                received.path("seconds").asDouble(),
                received.path("bytes").asLong(),
                sent.has("retransmits") ? sent.get("retransmits").asLong() : null,
                null,
                null,
                false,
                reverse,
                null);
    }

    /**
     * The client's source port of the first connection in an {@code iperf3 -J} report ({@code start.connected}), or
     * null when the report has none (iperf3 failed before connecting, or the output is not its JSON).
     */
    public static Integer clientPort(String json) {
        try {
            JsonNode port =
                    readObject(json).path("start").path("connected").path(0).path("local_port");
            return port.isInt() ? port.asInt() : null;
        } catch (OutputParseException e) {
            return null;
        }
    }

    private static JsonNode readObject(String json) throws OutputParseException {
        if (json == null || json.isBlank()) {
            throw new OutputParseException("expected iperf3's JSON report (-J), found empty output");
        }
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || !root.isObject()) {
                throw new OutputParseException(
                        "expected iperf3's JSON report (an object), found " + OutputParseException.excerpt(json));
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new OutputParseException(
                    "expected iperf3's JSON report (-J), found " + OutputParseException.excerpt(json) + " ("
                            + e.getOriginalMessage() + ")",
                    e);
        }
    }

    private static void require(JsonNode node, String what, String json) throws OutputParseException {
        if (node.isMissingNode() || !node.has("bits_per_second")) {
            throw new OutputParseException("expected " + what + ".bits_per_second in iperf3's report, found none in "
                    + OutputParseException.excerpt(json));
        }
    }
}
