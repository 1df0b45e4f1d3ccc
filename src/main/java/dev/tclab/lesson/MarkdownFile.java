package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlNode;
import java.util.Arrays;

/**
 * A markdown file split into its YAML front matter (between {@code ---} lines at the top) and its body.
 *
 * @param frontMatter the front matter, or null when the file has none or it is broken (a problem is recorded)
 * @param bodyLine    the file line the body starts on
 */
record MarkdownFile(String file, YamlNode frontMatter, String body, int bodyLine) {

    private static final String FENCE = "---";

    static MarkdownFile read(String file, String text, YamlChecks checks) {
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        if (lines.length == 0 || !lines[0].strip().equals(FENCE)) {
            checks.add(new FileProblem(file, 1, "", "missing front matter: start the file with a '---' line, "
                    + "the YAML (title: ...), and another '---' line"));
            return new MarkdownFile(file, null, String.join("\n", lines), 1);
        }
        int close = 1;
        while (close < lines.length && !lines[close].strip().equals(FENCE)) {
            close++;
        }
        if (close == lines.length) {
            checks.add(new FileProblem(file, 1, "", "the front matter opened on line 1 is never closed by a '---' line"));
            return new MarkdownFile(file, null, "", lines.length);
        }
        String yaml = String.join("\n", Arrays.copyOfRange(lines, 1, close));
        String body = String.join("\n", Arrays.copyOfRange(lines, close + 1, lines.length));
        YamlNode front = null;
        try {
            front = YamlNode.parse(file, "front matter", yaml, 2);
            if (!front.isMap()) {
                checks.add(front, "front matter is a YAML mapping (title: ...), found " + front.kind());
                front = null;
            }
        } catch (YamlException e) {
            checks.add(e.problem());
        }
        return new MarkdownFile(file, front, body, close + 2);
    }
}
