package dev.tclab.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The iperf3 flows a lesson's checks measure, read from its check blocks as rendered for validation (each parameter
 * at its first choice).
 */
final class GradedFlows {

    /**
     * One graded iperf3 client, with the options it gets from its measurement when its {@code flows} entry leaves
     * them out.
     *
     * @param check    the check's id
     * @param step     the index of the check's step in the lesson (0 for the first step)
     * @param name     the measurement's name, and the flow's when it has {@code flows} ({@code share.flows.b})
     * @param node     the client's node
     * @param server   the server address
     * @param port     the fixed server port, or null for a random one from 20000-29999
     * @param marked   whether it sets {@code tos} or {@code dscp}, which a filter can classify by instead of a port
     * @param line     the file line of the flow: its measurement's {@code iperf3}, or its entry under {@code flows}
     * @param portLine the file line of its {@code port}, 0 without one
     */
    record Flow(
            String check,
            int step,
            String file,
            String name,
            String node,
            String server,
            Integer port,
            boolean marked,
            int line,
            int portLine) {

        /** {@code check 'borrow', iperf3 'up'} */
        String title() {
            return "check '" + check + "', iperf3 '" + name + "'";
        }

        /** How a warning names it elsewhere: {@code check 'borrow', iperf3 'up' (steps/03-borrow.md:21)}. */
        String described() {
            return title() + " (" + file + ":" + line + ")";
        }
    }

    private GradedFlows() {}

    static List<Flow> of(List<CheckMeasurement> measurements) {
        List<Flow> flows = new ArrayList<>();
        for (CheckMeasurement m : measurements) {
            JsonNode iperf3 = m.kind("iperf3");
            if (!iperf3.isObject()) {
                continue;
            }
            String at = YamlDocument.child(m.at(), "iperf3");
            String name = m.entry().path("name").asText();
            String node = m.entry().path("node").asText();
            JsonNode named = iperf3.path("flows");
            if (!named.isObject() || named.isEmpty()) {
                flows.add(flow(m, at, name, node, iperf3, iperf3, at));
                continue;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = named.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                String flowAt = YamlDocument.child(YamlDocument.child(at, "flows"), entry.getKey());
                flows.add(flow(m, flowAt, name + ".flows." + entry.getKey(), node, iperf3, entry.getValue(), at));
            }
        }
        return flows;
    }

    /** A flow whose own options ({@code own}, at {@code at}) override its measurement's ({@code common}, at {@code commonAt}). */
    private static Flow flow(
            CheckMeasurement m, String at, String name, String node, JsonNode common, JsonNode own, String commonAt) {
        YamlDocument doc = m.doc();
        String portAt = own.has("port") ? YamlDocument.child(at, "port") : YamlDocument.child(commonAt, "port");
        JsonNode port = doc.at(portAt);
        return new Flow(
                m.check().id(),
                m.step(),
                m.check().file(),
                name,
                own.path("node").asText(node),
                own.path("server").asText(common.path("server").asText()),
                port.canConvertToInt() ? port.asInt() : null,
                own.has("tos") || own.has("dscp") || common.has("tos") || common.has("dscp"),
                doc.keyLine(at),
                port.isMissingNode() ? 0 : doc.line(portAt));
    }
}
