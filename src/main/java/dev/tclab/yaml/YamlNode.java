package dev.tclab.yaml;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML node that remembers where it came from (file, line, field path), so that validation errors in
 * author-written files (lab.yml, front matter, check specs) can say exactly where the problem is.
 */
public final class YamlNode {

    private final String file;
    private final String path;
    private final Node node;
    private final int lineOffset;
    /** The node of this value's key when it is a mapping entry, else null. */
    private final Node key;

    private YamlNode(String file, String path, Node node, int lineOffset, Node key) {
        this.file = file;
        this.path = path;
        this.node = node;
        this.lineOffset = lineOffset;
        this.key = key;
    }

    /**
     * Parses YAML text. {@code firstLine} is the file line the text starts on (1 for a whole file; more for a
     * block embedded in markdown), so reported lines are file lines.
     *
     * @param subject what the text is, for messages: {@code front matter}, {@code the check block}, ...
     * @throws YamlException with the file and line of a syntax error, in plain words
     */
    public static YamlNode parse(String file, String subject, String text, int firstLine) throws YamlException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(10);
        try {
            Node root = new Yaml(options).compose(new StringReader(text));
            if (root == null) {
                throw new YamlException(new FileProblem(file, firstLine, "", subject + " is empty"));
            }
            return new YamlNode(file, "", root, firstLine - 1, null);
        } catch (MarkedYAMLException e) {
            throw new YamlException(YamlSyntaxError.describe(file, subject, e, firstLine));
        } catch (YAMLException e) {
            throw new YamlException(new FileProblem(file, firstLine, "", subject + " is not valid YAML: " + e.getMessage()));
        }
    }

    public String file() {
        return file;
    }

    /** The field path from the document root, e.g. {@code topology.nodes.client.exec[1]}. */
    public String path() {
        return path;
    }

    /** The 1-based file line this node starts on. */
    public int line() {
        return node.getStartMark().getLine() + 1 + lineOffset;
    }

    public boolean isMap() {
        return node instanceof MappingNode;
    }

    public boolean isList() {
        return node instanceof SequenceNode;
    }

    public boolean isScalar() {
        return node instanceof ScalarNode;
    }

    /** The scalar's text, or null when this is not a scalar. */
    public String text() {
        return node instanceof ScalarNode scalar ? scalar.getValue() : null;
    }

    /** A problem located at this node. */
    public FileProblem problem(String message) {
        return new FileProblem(file, line(), path, message);
    }

    /** A problem with this entry's key (e.g. a bad name), located at the key's line. */
    public FileProblem keyProblem(String message) {
        int line = key == null ? line() : key.getStartMark().getLine() + 1 + lineOffset;
        return new FileProblem(file, line, path, message);
    }

    /** The entries of a mapping, in file order; empty for anything else. Keys are the scalar keys' text. */
    public Map<String, YamlNode> entries() {
        Map<String, YamlNode> entries = new LinkedHashMap<>();
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                String key = tuple.getKeyNode() instanceof ScalarNode s ? s.getValue() : String.valueOf(tuple.getKeyNode());
                entries.put(key, new YamlNode(file, path.isEmpty() ? key : path + "." + key, tuple.getValueNode(), lineOffset,
                        tuple.getKeyNode()));
            }
        }
        return entries;
    }

    /** The value under {@code key} in a mapping, or null. */
    public YamlNode get(String key) {
        return entries().get(key);
    }

    /** The items of a sequence, in order; empty for anything else. */
    public List<YamlNode> items() {
        List<YamlNode> items = new ArrayList<>();
        if (node instanceof SequenceNode sequence) {
            List<Node> values = sequence.getValue();
            for (int i = 0; i < values.size(); i++) {
                items.add(new YamlNode(file, path + "[" + i + "]", values.get(i), lineOffset, null));
            }
        }
        return items;
    }

    /** What kind of YAML value this is, in words for error messages. */
    public String kind() {
        return isMap() ? "a mapping" : isList() ? "a list" : "a value";
    }
}
