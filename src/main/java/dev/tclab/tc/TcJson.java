package dev.tclab.tc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Reads tc's JSON, including its quirks. */
final class TcJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TcJson() {}

    static boolean looksLikeJson(String raw) {
        String s = raw == null ? "" : raw.strip();
        return s.startsWith("[") || s.startsWith("{");
    }

    /**
     * Parses tc's JSON array. tc prints a key twice where a filter has several {@code match} entries (iproute2
     * 6.1 u32); such repeated keys are collected into an array instead of the last one winning.
     */
    static ArrayNode array(String raw, String what) throws TcParseException {
        if (raw == null || raw.isBlank()) {
            throw new TcParseException("expected the JSON array printed by `" + what + "`, found empty output");
        }
        JsonNode node;
        try (JsonParser parser = FACTORY.createParser(raw)) {
            node = read(parser, parser.nextToken());
            if (parser.nextToken() != null) {
                throw new TcParseException("expected one JSON array from `" + what + "`, found more after it");
            }
        } catch (IOException e) {
            throw new TcParseException(
                    "expected the JSON array printed by `" + what + "`, found " + TcParseException.excerpt(raw) + " ("
                            + reason(e) + ")",
                    e);
        }
        if (!(node instanceof ArrayNode array)) {
            throw new TcParseException(
                    "expected a JSON array from `" + what + "`, found " + TcParseException.excerpt(raw));
        }
        return array;
    }

    private static String reason(IOException e) {
        return e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
    }

    private static JsonNode read(JsonParser parser, JsonToken token) throws IOException {
        if (token == null) {
            throw new IOException("the JSON ends too early");
        }
        switch (token) {
            case START_ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    array.add(read(parser, t));
                }
                return array;
            }
            case START_OBJECT -> {
                ObjectNode object = NODES.objectNode();
                Set<String> repeatedKeys = new HashSet<>();
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
                    if (t == null) {
                        throw new IOException("the JSON ends inside an object");
                    }
                    String key = parser.currentName();
                    JsonNode value = read(parser, parser.nextToken());
                    JsonNode previous = object.get(key);
                    if (previous == null) {
                        object.set(key, value);
                    } else if (repeatedKeys.contains(key)) {
                        ((ArrayNode) previous).add(value);
                    } else {
                        object.set(key, NODES.arrayNode().add(previous).add(value));
                        repeatedKeys.add(key);
                    }
                }
                return object;
            }
            default -> {
                return MAPPER.readTree(parser);
            }
        }
    }

    /** Plain Java values (Map, List, String, Long, Double, Boolean) for a JSON object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> toMap(JsonNode node) {
        if (node == null || !node.isObject()) {
            return Map.of();
        }
        return new LinkedHashMap<>(MAPPER.convertValue(node, Map.class));
    }

    static long longOr(JsonNode object, String key, long fallback) {
        JsonNode v = object.get(key);
        return v != null && v.isNumber() ? v.asLong() : fallback;
    }

    static String textOr(JsonNode object, String key, String fallback) {
        JsonNode v = object.get(key);
        return v != null && !v.isNull() ? v.asText() : fallback;
    }
}
