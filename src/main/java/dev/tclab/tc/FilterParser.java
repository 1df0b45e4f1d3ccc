package dev.tclab.tc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code tc filter show dev X [parent P]}: text (u32, matchall, mirred actions) and tc's JSON. */
public final class FilterParser {

    private static final String COMMAND = "tc filter show";
    private static final Pattern HEADER =
            Pattern.compile("filter (?:parent (\\S+) )?protocol (\\S+) pref (\\d+) (\\S+)(?: chain (\\d+))?(.*)");
    private static final Pattern HANDLE = Pattern.compile("\\b(?:fh|handle) (\\S+)");
    private static final Pattern FLOWID = Pattern.compile("\\*?(?:flowid|classid) ([0-9a-fA-F]+:[0-9a-fA-F]*)");
    private static final Pattern MATCH = Pattern.compile("match (\\S+/\\S+ at -?\\d+)");
    private static final Pattern MIRRED =
            Pattern.compile("action order (\\d+): mirred \\((\\S+) (Redirect|Mirror) to device (\\S+)\\) (\\S+)");
    private static final Pattern OTHER_ACTION = Pattern.compile("action order (\\d+): (\\S+?)(?::|\\s|$)(.*)");

    private FilterParser() {}

    /** Every entry in the output (rules and u32 header entries), in tc's order. Empty output means no filters. */
    public static List<TcFilter> parse(String output) throws TcParseException {
        if (output == null || output.isBlank()) {
            return List.of();
        }
        return TcJson.looksLikeJson(output) ? parseJson(output) : parseText(output);
    }

    private static List<TcFilter> parseText(String output) throws TcParseException {
        List<TcFilter> filters = new ArrayList<>();
        List<String> block = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.startsWith("filter ") && !block.isEmpty()) {
                filters.add(textFilter(block));
                block.clear();
            }
            if (!line.isBlank()) {
                if (block.isEmpty() && !line.startsWith("filter ")) {
                    throw new TcParseException("expected lines starting with 'filter' from `" + COMMAND + "`, found "
                            + TcParseException.excerpt(line));
                }
                block.add(line.strip());
            }
        }
        if (!block.isEmpty()) {
            filters.add(textFilter(block));
        }
        return filters;
    }

    private static TcFilter textFilter(List<String> lines) throws TcParseException {
        Matcher h = HEADER.matcher(lines.get(0).strip());
        if (!h.matches()) {
            throw new TcParseException("expected 'filter [parent P] protocol X pref N <kind> ...' from `" + COMMAND
                    + "`, found " + TcParseException.excerpt(lines.get(0)));
        }
        String rest = h.group(6);
        Matcher handle = HANDLE.matcher(rest);
        Matcher flowid = FLOWID.matcher(rest);
        List<String> matches = new ArrayList<>();
        List<FilterAction> actions = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            Matcher m = MATCH.matcher(line);
            Matcher mirred = MIRRED.matcher(line);
            Matcher other = OTHER_ACTION.matcher(line);
            if (m.find()) {
                matches.add(m.group(1));
            } else if (mirred.find()) {
                actions.add(new FilterAction(
                        Integer.parseInt(mirred.group(1)),
                        "mirred",
                        mirred.group(2).toLowerCase(Locale.ROOT),
                        mirred.group(3).toLowerCase(Locale.ROOT),
                        mirred.group(4),
                        mirred.group(5)));
            } else if (other.find()) {
                actions.add(new FilterAction(Integer.parseInt(other.group(1)), other.group(2), null, null, null, null));
            }
        }
        return new TcFilter(
                h.group(4),
                h.group(1),
                h.group(2),
                Integer.parseInt(h.group(3)),
                h.group(5) == null ? null : Integer.valueOf(h.group(5)),
                handle.find() ? handle.group(1) : null,
                flowid.find() ? flowid.group(1) : null,
                matches,
                actions);
    }

    private static List<TcFilter> parseJson(String output) throws TcParseException {
        ArrayNode array = TcJson.array(output, COMMAND + " (-j)");
        List<TcFilter> filters = new ArrayList<>();
        for (JsonNode item : array) {
            if (!item.hasNonNull("kind") || !item.hasNonNull("pref")) {
                throw new TcParseException("expected filter objects with 'kind' and 'pref' from `" + COMMAND
                        + " -j`, found " + TcParseException.excerpt(item.toString()));
            }
            JsonNode options = item.path("options");
            String handle = options.hasNonNull("fh")
                    ? options.get("fh").asText()
                    : options.hasNonNull("handle") ? options.get("handle").asText() : null;
            filters.add(new TcFilter(
                    item.get("kind").asText(),
                    TcJson.textOr(item, "parent", null),
                    TcJson.textOr(item, "protocol", null),
                    item.get("pref").asInt(),
                    item.has("chain") ? item.get("chain").asInt() : null,
                    handle,
                    TcJson.textOr(options, "flowid", TcJson.textOr(options, "classid", null)),
                    jsonMatches(options.get("match")),
                    jsonActions(options.get("actions"))));
        }
        return filters;
    }

    /** u32 matches in the same form as the text output: value/mask at offset, as 8 hex digits. */
    private static List<String> jsonMatches(JsonNode match) {
        List<String> matches = new ArrayList<>();
        if (match == null) {
            return matches;
        }
        for (JsonNode m : match.isArray() ? match : List.of(match)) {
            matches.add(hex8(m.path("value").asText("0")) + "/"
                    + hex8(m.path("mask").asText("0")) + " at " + m.path("off").asInt());
        }
        return matches;
    }

    private static String hex8(String hex) {
        return "0".repeat(Math.max(0, 8 - hex.length())) + hex;
    }

    private static List<FilterAction> jsonActions(JsonNode actions) {
        List<FilterAction> result = new ArrayList<>();
        if (actions == null || !actions.isArray()) {
            return result;
        }
        for (JsonNode a : actions) {
            result.add(new FilterAction(
                    a.path("order").asInt(),
                    TcJson.textOr(a, "kind", null),
                    TcJson.textOr(a, "direction", null),
                    TcJson.textOr(a, "mirred_action", null),
                    TcJson.textOr(a, "to_dev", null),
                    TcJson.textOr(a.path("control_action"), "type", null)));
        }
        return result;
    }
}
