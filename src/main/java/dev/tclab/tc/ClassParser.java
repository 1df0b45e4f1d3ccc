package dev.tclab.tc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code tc -s [-d] class show dev X}. iproute2 before 6.2 (Debian 12 has 6.1) prints text even with
 * {@code -j}, so text is the main format; JSON is read when tc printed JSON.
 */
public final class ClassParser {

    private static final String COMMAND = "tc -s class show";
    private static final Pattern HEADER = Pattern.compile("class (\\S+) (\\S+) (.*)");
    private static final Pattern HTB_XSTATS = Pattern.compile("lended: (\\d+) borrowed: (\\d+) giants: (\\d+)");
    /**
     * The statistics line of a class that has a queue but counts no traffic: sfq prints one class per active flow
     * with only {@code (dropped N, overlimits N requeues N)}, its backlog and {@code allot}.
     */
    private static final Pattern QUEUE_ONLY =
            Pattern.compile("^\\(dropped (\\d+), overlimits (\\d+) requeues (\\d+)\\)", Pattern.MULTILINE);

    private static final Pattern TOKENS = Pattern.compile("tokens: (-?\\d+) ctokens: (-?\\d+)");
    /** Header words that carry a value; other words (e.g. {@code root}) stand alone. */
    private static final List<String> VALUED = List.of(
            "parent",
            "leaf",
            "prio",
            "quantum",
            "rate",
            "ceil",
            "burst",
            "cburst",
            "linklayer",
            "mpu",
            "level",
            "overhead");

    private ClassParser() {}

    /** Every class in the output, text or JSON. Empty output means the device has no classes. */
    public static List<TcClass> parse(String output) throws TcParseException {
        if (output == null || output.isBlank()) {
            return List.of();
        }
        return TcJson.looksLikeJson(output) ? parseJson(output) : parseText(output);
    }

    private static List<TcClass> parseText(String output) throws TcParseException {
        List<TcClass> classes = new ArrayList<>();
        List<String> block = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.startsWith("class ") && !block.isEmpty()) {
                classes.add(textClass(block));
                block.clear();
            }
            if (!line.isBlank()) {
                block.add(line.strip());
            }
        }
        if (!block.isEmpty()) {
            classes.add(textClass(block));
        }
        return classes;
    }

    private static TcClass textClass(List<String> lines) throws TcParseException {
        Matcher header = HEADER.matcher(lines.get(0) + " ");
        if (!header.matches()) {
            throw new TcParseException("expected lines starting with 'class <kind> <id>' from `" + COMMAND + "`, found "
                    + TcParseException.excerpt(lines.get(0)));
        }
        Map<String, String> words = headerWords(header.group(3));
        String body = String.join("\n", lines.subList(1, lines.size()));
        QdiscStats stats = textStats(body, lines.get(0));
        Matcher x = HTB_XSTATS.matcher(body);
        boolean hasX = x.find();
        Matcher t = TOKENS.matcher(body);
        boolean hasT = t.find();
        return new TcClass(
                header.group(1),
                header.group(2),
                words.containsKey("root") ? "root" : words.get("parent"),
                words.get("leaf"),
                intOrNull(words.get("prio")),
                longOrNull(words.get("quantum")),
                words.containsKey("rate") ? TcText.rate(words.get("rate")) : null,
                words.containsKey("ceil") ? TcText.rate(words.get("ceil")) : null,
                words.containsKey("burst") ? TcText.size(words.get("burst")) : null,
                words.containsKey("cburst") ? TcText.size(words.get("cburst")) : null,
                stats,
                hasX ? Long.parseLong(x.group(1)) : null,
                hasX ? Long.parseLong(x.group(2)) : null,
                hasX ? Long.parseLong(x.group(3)) : null,
                hasT ? Long.parseLong(t.group(1)) : null,
                hasT ? Long.parseLong(t.group(2)) : null);
    }

    private static Map<String, String> headerWords(String rest) {
        Map<String, String> words = new HashMap<>();
        String[] tokens = rest.trim().split("\\s+");
        for (int i = 0; i < tokens.length; i++) {
            if (VALUED.contains(tokens[i]) && i + 1 < tokens.length) {
                // "mpu" appears after both burst and cburst with -d; the first value is kept.
                words.putIfAbsent(tokens[i], tokens[i + 1]);
                i++;
            } else if (!tokens[i].isEmpty()) {
                words.putIfAbsent(tokens[i], "");
            }
        }
        return words;
    }

    private static QdiscStats textStats(String body, String header) throws TcParseException {
        Matcher sent = TcText.SENT.matcher(body);
        if (!sent.find()) {
            if (body.isBlank()) {
                return QdiscStats.NONE;
            }
            Matcher queueOnly = QUEUE_ONLY.matcher(body);
            if (queueOnly.find()) {
                return queueOnlyStats(queueOnly, body);
            }
            throw new TcParseException("expected a 'Sent <n> bytes <n> pkt (dropped ...)' line after "
                    + TcParseException.excerpt(header) + ", found " + TcParseException.excerpt(body));
        }
        Matcher backlog = TcText.BACKLOG.matcher(body);
        boolean hasBacklog = backlog.find();
        return new QdiscStats(
                Long.parseLong(sent.group(1)),
                Long.parseLong(sent.group(2)),
                Long.parseLong(sent.group(3)),
                Long.parseLong(sent.group(4)),
                Long.parseLong(sent.group(5)),
                hasBacklog ? TcText.size(backlog.group(1)) : 0,
                hasBacklog ? Long.parseLong(backlog.group(2)) : 0);
    }

    /** A class that counts no bytes or packets, only its queue: sfq's flows, say. */
    private static QdiscStats queueOnlyStats(Matcher queueOnly, String body) throws TcParseException {
        Matcher backlog = TcText.BACKLOG.matcher(body);
        boolean hasBacklog = backlog.find();
        return new QdiscStats(
                0,
                0,
                Long.parseLong(queueOnly.group(1)),
                Long.parseLong(queueOnly.group(2)),
                Long.parseLong(queueOnly.group(3)),
                hasBacklog ? TcText.size(backlog.group(1)) : 0,
                hasBacklog ? Long.parseLong(backlog.group(2)) : 0);
    }

    private static List<TcClass> parseJson(String output) throws TcParseException {
        ArrayNode array = TcJson.array(output, COMMAND + " (-j)");
        List<TcClass> classes = new ArrayList<>();
        for (JsonNode item : array) {
            if (!item.hasNonNull("class") || !item.hasNonNull("handle")) {
                throw new TcParseException("expected class objects with 'class' and 'handle' from `" + COMMAND
                        + " -j`, found " + TcParseException.excerpt(item.toString()));
            }
            JsonNode opt = item.has("options") ? item.get("options") : item;
            JsonNode st = item.has("stats") ? item.get("stats") : item;
            JsonNode xst = item.has("xstats") ? item.get("xstats") : st;
            QdiscStats stats = new QdiscStats(
                    TcJson.longOr(st, "bytes", 0),
                    TcJson.longOr(st, "packets", 0),
                    TcJson.longOr(st, "drops", 0),
                    TcJson.longOr(st, "overlimits", 0),
                    TcJson.longOr(st, "requeues", 0),
                    TcJson.longOr(st, "backlog", 0),
                    TcJson.longOr(st, "qlen", 0));
            classes.add(new TcClass(
                    item.get("class").asText(),
                    item.get("handle").asText(),
                    item.path("root").asBoolean(false) ? "root" : TcJson.textOr(item, "parent", null),
                    TcJson.textOr(item, "leaf", null),
                    opt.has("prio") ? opt.get("prio").asInt() : null,
                    nullableLong(opt, "quantum"),
                    // tc's JSON has rates in bytes/s; TcClass holds bit/s like the text form.
                    opt.has("rate") ? opt.get("rate").asLong() * 8 : null,
                    opt.has("ceil") ? opt.get("ceil").asLong() * 8 : null,
                    nullableLong(opt, "burst"),
                    nullableLong(opt, "cburst"),
                    stats,
                    nullableLong(xst, "lended"),
                    nullableLong(xst, "borrowed"),
                    nullableLong(xst, "giants"),
                    nullableLong(xst, "tokens"),
                    nullableLong(xst, "ctokens")));
        }
        return classes;
    }

    private static Long nullableLong(JsonNode node, String key) {
        return node.has(key) && node.get(key).isNumber() ? node.get(key).asLong() : null;
    }

    private static Integer intOrNull(String text) throws TcParseException {
        Long value = longOrNull(text);
        return value == null ? null : value.intValue();
    }

    private static Long longOrNull(String text) throws TcParseException {
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new TcParseException("expected a whole number in a class line, found '" + text + "'");
        }
    }
}
