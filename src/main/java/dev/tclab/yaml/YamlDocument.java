package dev.tclab.yaml;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * An author's YAML (lab.yml, front matter, a check or quiz block) read into a Jackson tree that remembers the file
 * line of every value and key by JSON pointer ({@code /measure/0/iperf3/seconds}), so schema violations and rules
 * checked after binding can say exactly where the problem is.
 */
public final class YamlDocument {

    /** Author files are small; this bounds what a hostile one makes the server hold. */
    private static final int MAX_CHARS = 256 * 1024;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final YAMLFactory FACTORY = yamlFactory();
    /** Binds validated trees into records: a key the schema allows but a record lacks is a bug, so it fails. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final String file;
    private final JsonNode root;
    private final Map<String, Integer> valueLines;
    private final Map<String, Integer> keyLines;

    private YamlDocument(String file, JsonNode root, Map<String, Integer> valueLines, Map<String, Integer> keyLines) {
        this.file = file;
        this.root = root;
        this.valueLines = valueLines;
        this.keyLines = keyLines;
    }

    private static YAMLFactory yamlFactory() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_CHARS);
        return YAMLFactory.builder()
                .loaderOptions(options)
                .streamReadConstraints(
                        StreamReadConstraints.builder().maxNestingDepth(64).build())
                .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
                .build();
    }

    /**
     * Parses YAML text. {@code firstLine} is the file line the text starts on (1 for a whole file; more for a block
     * embedded in markdown), so reported lines are file lines.
     *
     * @param subject what the text is, for messages: {@code front matter}, {@code the check block}, ...
     * @throws YamlException with the file and line of a syntax error, in plain words
     */
    public static YamlDocument parse(String file, String subject, String text, int firstLine) throws YamlException {
        if (text.length() > MAX_CHARS) {
            throw new YamlException(new FileProblem(
                    file, firstLine, "", subject + " is longer than " + MAX_CHARS + " characters; split it"));
        }
        Map<String, Integer> valueLines = new HashMap<>();
        Map<String, Integer> keyLines = new HashMap<>();
        try (JsonParser parser = FACTORY.createParser(text)) {
            if (parser.nextToken() == null) {
                throw new YamlException(new FileProblem(file, firstLine, "", subject + " is empty"));
            }
            Reader reader = new Reader(file, subject, (YAMLParser) parser, firstLine, valueLines, keyLines);
            return new YamlDocument(file, reader.value(""), valueLines, keyLines);
        } catch (JsonProcessingException e) {
            if (e.getCause() instanceof MarkedYAMLException marked) {
                throw new YamlException(YamlSyntaxError.describe(file, subject, marked, firstLine));
            }
            int line = e.getLocation() == null ? firstLine : e.getLocation().getLineNr() + firstLine - 1;
            String words = e instanceof JsonEOFException ? "it ends in the middle of a value" : e.getOriginalMessage();
            throw new YamlException(new FileProblem(file, line, "", subject + " is not valid YAML: " + words));
        } catch (IOException e) {
            throw new YamlException(
                    new FileProblem(file, firstLine, "", subject + " cannot be read: " + e.getMessage()));
        }
    }

    public String file() {
        return file;
    }

    public JsonNode root() {
        return root;
    }

    /** The node at a JSON pointer; a missing node when there is none. */
    public JsonNode at(String pointer) {
        return root.at(pointer);
    }

    /** The file line of the value at {@code pointer}, or of its nearest ancestor that has one. */
    public int line(String pointer) {
        for (String p = pointer; ; p = parent(p)) {
            Integer line = valueLines.get(p);
            if (line != null || p.isEmpty()) {
                return line == null ? 0 : line;
            }
        }
    }

    /** The file line of the key that names the value at {@code pointer} (its own line for list items). */
    public int keyLine(String pointer) {
        Integer line = keyLines.get(pointer);
        return line == null ? line(pointer) : line;
    }

    /** A problem with the value at {@code pointer}. */
    public FileProblem problem(String pointer, String message) {
        return new FileProblem(file, line(pointer), field(pointer), message);
    }

    /** A problem with the key that names the value at {@code pointer} (e.g. an unknown key, a bad name). */
    public FileProblem keyProblem(String pointer, String message) {
        return new FileProblem(file, keyLine(pointer), field(pointer), message);
    }

    /**
     * Binds the value at {@code pointer} into {@code type} (a record whose components are the schema's keys).
     * Schema-valid input always binds; a failure here means the schema and the record disagree.
     */
    public <T> T bind(String pointer, Class<T> type) {
        try {
            return MAPPER.treeToValue(root.at(pointer), type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException(
                    problem(
                                    pointer,
                                    "the published schema and " + type.getSimpleName() + " disagree: " + e.getMessage())
                            .toString(),
                    e);
        }
    }

    /** Binds the value at {@code pointer} into a generic type, e.g. a {@code Map<String, String>}; see the other. */
    public <T> T bind(String pointer, TypeReference<T> type) {
        try {
            return MAPPER.treeToValue(root.at(pointer), MAPPER.constructType(type));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalStateException(
                    problem(pointer, "the published schema and " + type.getType() + " disagree: " + e.getMessage())
                            .toString(),
                    e);
        }
    }

    /** {@code /topology/nodes/client/exec/1} as authors read it: {@code topology.nodes.client.exec[1]}. */
    public String field(String pointer) {
        StringBuilder out = new StringBuilder();
        JsonNode node = root;
        for (String segment :
                pointer.isEmpty() ? new String[0] : pointer.substring(1).split("/", -1)) {
            String key = segment.replace("~1", "/").replace("~0", "~");
            if (node != null && node.isArray()) {
                out.append('[').append(key).append(']');
                node = node.path(Integer.parseInt(key));
            } else {
                out.append(out.isEmpty() ? "" : ".").append(key);
                node = node == null ? null : node.get(key);
            }
        }
        return out.toString();
    }

    /** The pointer of {@code key} under the object at {@code pointer}. */
    public static String child(String pointer, String key) {
        return pointer + "/" + key.replace("~", "~0").replace("/", "~1");
    }

    /** The pointer of item {@code index} of the list at {@code pointer}. */
    public static String child(String pointer, int index) {
        return pointer + "/" + index;
    }

    private static String parent(String pointer) {
        int slash = pointer.lastIndexOf('/');
        return slash <= 0 ? "" : pointer.substring(0, slash);
    }

    /** Builds the tree from the parser's tokens, recording each value's and key's line as it goes. */
    private record Reader(
            String file,
            String subject,
            YAMLParser parser,
            int firstLine,
            Map<String, Integer> valueLines,
            Map<String, Integer> keyLines) {

        JsonNode value(String pointer) throws IOException, YamlException {
            JsonToken token = parser.currentToken();
            valueLines.put(pointer, line());
            return switch (token) {
                case START_OBJECT -> object(pointer);
                case START_ARRAY -> array(pointer);
                case VALUE_STRING -> {
                    if (parser.isCurrentAlias()) {
                        throw new YamlException(new FileProblem(
                                file,
                                line(),
                                "",
                                subject + " uses the alias '*"
                                        + parser.getText()
                                        + "': aliases are not read here; write the value out, or put a "
                                        + "value that starts with '*' in quotes"));
                    }
                    yield NODES.textNode(parser.getText());
                }
                case VALUE_NUMBER_INT ->
                    switch (parser.getNumberType()) {
                        case INT -> NODES.numberNode(parser.getIntValue());
                        case LONG -> NODES.numberNode(parser.getLongValue());
                        default -> NODES.numberNode(parser.getBigIntegerValue());
                    };
                case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDecimalValue());
                case VALUE_TRUE -> NODES.booleanNode(true);
                case VALUE_FALSE -> NODES.booleanNode(false);
                case VALUE_NULL -> NODES.nullNode();
                default ->
                    throw new YamlException(new FileProblem(
                            file,
                            line(),
                            "",
                            subject + " has a value that is not text, a number, a list or a mapping"));
            };
        }

        private ObjectNode object(String pointer) throws IOException, YamlException {
            ObjectNode object = NODES.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                String child = child(pointer, key);
                if (object.has(key)) {
                    throw new YamlException(new FileProblem(
                            file,
                            line(),
                            "",
                            subject + " has the key '" + key + "' twice (first on line " + keyLines.get(child)
                                    + "); keep one"));
                }
                keyLines.put(child, line());
                parser.nextToken();
                object.set(key, value(child));
            }
            return object;
        }

        private ArrayNode array(String pointer) throws IOException, YamlException {
            ArrayNode array = NODES.arrayNode();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                array.add(value(child(pointer, array.size())));
            }
            return array;
        }

        private int line() {
            return parser.currentTokenLocation().getLineNr() + firstLine - 1;
        }
    }
}
