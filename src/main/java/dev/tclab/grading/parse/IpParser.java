package dev.tclab.grading.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/** Parses {@code ip -j addr show} and {@code ip -j link show}. */
public final class IpParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private IpParser() {}

    public static List<IpInterface> parse(String json) throws OutputParseException {
        JsonNode root;
        try {
            root = json == null || json.isBlank() ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new OutputParseException(
                    "expected the JSON array of `ip -j addr|link show`, found " + OutputParseException.excerpt(json)
                            + " (" + e.getOriginalMessage() + ")",
                    e);
        }
        if (root == null || !root.isArray()) {
            throw new OutputParseException(
                    "expected the JSON array of `ip -j addr|link show`, found " + OutputParseException.excerpt(json));
        }
        List<IpInterface> interfaces = new ArrayList<>();
        for (JsonNode link : root) {
            if (!link.hasNonNull("ifname")) {
                throw new OutputParseException("expected interfaces with 'ifname' from `ip -j`, found "
                        + OutputParseException.excerpt(link.toString()));
            }
            List<String> addresses = new ArrayList<>();
            for (JsonNode addr : link.path("addr_info")) {
                addresses.add(addr.path("local").asText() + "/"
                        + addr.path("prefixlen").asInt());
            }
            boolean up = false;
            for (JsonNode flag : link.path("flags")) {
                up |= "UP".equals(flag.asText());
            }
            interfaces.add(new IpInterface(
                    link.get("ifname").asText(),
                    link.path("mtu").asInt(),
                    link.path("qdisc").asText(null),
                    link.path("operstate").asText(null),
                    up,
                    link.path("address").asText(null),
                    addresses));
        }
        return interfaces;
    }
}
