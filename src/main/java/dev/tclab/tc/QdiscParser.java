package dev.tclab.tc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Parses {@code tc -s -j qdisc show [dev X]} (iproute2 JSON; counters are flat keys, CAKE adds {@code tins}). */
public final class QdiscParser {

    private static final String COMMAND = "tc -s -j qdisc show";
    /** The handle tc gives the ingress (and clsact) hook as a parent. */
    private static final String INGRESS_PARENT = "ffff:fff1";

    private static final Set<String> NOT_XSTATS = Set.of(
            "kind",
            "handle",
            "dev",
            "root",
            "parent",
            "refcnt",
            "options",
            "bytes",
            "packets",
            "drops",
            "overlimits",
            "requeues",
            "backlog",
            "qlen",
            "tins");

    private QdiscParser() {}

    /** Every qdisc in the output, in tc's order. */
    public static List<Qdisc> parseJson(String json) throws TcParseException {
        return parseJson(json, null);
    }

    /** As {@link #parseJson(String)}, filling in {@code dev} where tc omits it (output of {@code show dev X}). */
    public static List<Qdisc> parseJson(String json, String dev) throws TcParseException {
        ArrayNode array = TcJson.array(json, COMMAND);
        List<Qdisc> qdiscs = new ArrayList<>();
        for (JsonNode item : array) {
            qdiscs.add(qdisc(item, dev));
        }
        return qdiscs;
    }

    private static Qdisc qdisc(JsonNode item, String dev) throws TcParseException {
        if (!item.isObject() || !item.hasNonNull("kind") || !item.hasNonNull("handle")) {
            throw new TcParseException("expected qdisc objects with 'kind' and 'handle' from `" + COMMAND + "`, found "
                    + TcParseException.excerpt(item.toString()));
        }
        QdiscStats stats = new QdiscStats(
                TcJson.longOr(item, "bytes", 0),
                TcJson.longOr(item, "packets", 0),
                TcJson.longOr(item, "drops", 0),
                TcJson.longOr(item, "overlimits", 0),
                TcJson.longOr(item, "requeues", 0),
                TcJson.longOr(item, "backlog", 0),
                TcJson.longOr(item, "qlen", 0));
        Map<String, Object> xstats = TcJson.toMap(item);
        xstats.keySet().removeAll(NOT_XSTATS);
        return new Qdisc(
                item.get("kind").asText(),
                item.get("handle").asText(),
                parent(item),
                TcJson.textOr(item, "dev", dev),
                TcJson.toMap(item.get("options")),
                stats,
                xstats,
                tins(item.get("tins")));
    }

    private static String parent(JsonNode item) {
        if (item.path("root").asBoolean(false)) {
            return "root";
        }
        String parent = TcJson.textOr(item, "parent", "");
        return INGRESS_PARENT.equals(parent) ? "ingress" : parent;
    }

    private static List<CakeTin> tins(JsonNode tins) throws TcParseException {
        if (tins == null) {
            return List.of();
        }
        if (!tins.isArray()) {
            throw new TcParseException(
                    "expected CAKE's 'tins' to be a JSON array, found " + TcParseException.excerpt(tins.toString()));
        }
        List<CakeTin> result = new ArrayList<>();
        for (JsonNode t : tins) {
            result.add(new CakeTin(
                    TcJson.longOr(t, "threshold_rate", 0),
                    TcJson.longOr(t, "sent_bytes", 0),
                    TcJson.longOr(t, "sent_packets", 0),
                    TcJson.longOr(t, "backlog_bytes", 0),
                    TcJson.longOr(t, "target_us", 0),
                    TcJson.longOr(t, "interval_us", 0),
                    TcJson.longOr(t, "peak_delay_us", 0),
                    TcJson.longOr(t, "avg_delay_us", 0),
                    TcJson.longOr(t, "base_delay_us", 0),
                    TcJson.longOr(t, "drops", 0),
                    TcJson.longOr(t, "ecn_mark", 0),
                    TcJson.longOr(t, "ack_drops", 0),
                    TcJson.longOr(t, "sparse_flows", 0),
                    TcJson.longOr(t, "bulk_flows", 0),
                    TcJson.longOr(t, "unresponsive_flows", 0),
                    TcJson.longOr(t, "max_pkt_len", 0),
                    TcJson.longOr(t, "flow_quantum", 0)));
        }
        return result;
    }
}
