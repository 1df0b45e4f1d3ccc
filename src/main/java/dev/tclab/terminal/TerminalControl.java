package dev.tclab.terminal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the JSON control messages a page sends on a terminal socket (text frames): {@code
 * {"type":"resize","cols":C,"rows":R}} and {@code {"type":"ack","bytes":N}} (how many bytes of output the page has
 * drawn since it connected); anything else is refused with a message saying what is wrong.
 */
final class TerminalControl {

    static final int MAX_COLUMNS = 1000;
    static final int MAX_ROWS = 500;

    /** A validated control message. */
    sealed interface Control permits Resize, Ack {}

    /** A validated resize request. */
    record Resize(int cols, int rows) implements Control {}

    /** The page has drawn {@code bytes} bytes of output since it connected ({@link WebSocketTerminalSink}). */
    record Ack(long bytes) implements Control {}

    /** A control message that cannot be obeyed; the message is sent back to the page in an error frame. */
    static final class InvalidControlException extends Exception {
        InvalidControlException(String message) {
            super(message);
        }
    }

    private TerminalControl() {}

    static Control parse(ObjectMapper json, String text) throws InvalidControlException {
        JsonNode message;
        try {
            message = json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidControlException(
                    "A text frame must be a JSON control message; this one is not valid JSON. "
                            + "Send keystrokes as binary frames.");
        }
        if (message == null || !message.isObject()) {
            throw new InvalidControlException("A control message must be a JSON object with a \"type\".");
        }
        String type = message.path("type").asText("");
        return switch (type) {
            case "resize" -> new Resize(dimension(message, "cols", MAX_COLUMNS), dimension(message, "rows", MAX_ROWS));
            case "ack" -> new Ack(drawnBytes(message));
            default ->
                throw new InvalidControlException("Unknown control message type '" + abbreviate(type)
                        + "'; the types are \"resize\" and \"ack\".");
        };
    }

    private static long drawnBytes(JsonNode message) throws InvalidControlException {
        JsonNode value = message.get("bytes");
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw new InvalidControlException("ack needs \"bytes\" as a whole number, 0 or more.");
        }
        return value.longValue();
    }

    private static int dimension(JsonNode message, String field, int max) throws InvalidControlException {
        JsonNode value = message.get(field);
        if (value == null
                || !value.canConvertToInt()
                || !value.isIntegralNumber()
                || value.intValue() < 1
                || value.intValue() > max) {
            throw new InvalidControlException(
                    "resize needs \"" + field + "\" as a whole number from 1 to " + max + ".");
        }
        return value.intValue();
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
