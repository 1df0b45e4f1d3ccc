package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import java.util.Arrays;
import java.util.List;

/**
 * A markdown file split into its YAML front matter (between {@code ---} lines at the top) and its body.
 *
 * @param frontMatter the front matter, parsed but not yet validated, or null when the file has none or it is not
 *                    YAML (a problem is recorded)
 * @param bodyLine    the file line the body starts on
 */
record MarkdownFile(String file, YamlDocument frontMatter, String body, int bodyLine) {

    private static final String FENCE = "---";

    static MarkdownFile read(String file, String text, List<FileProblem> problems) {
        String[] lines = text.replace("\r\n", "\n").split("\n", -1);
        if (lines.length == 0 || !lines[0].strip().equals(FENCE)) {
            problems.add(new FileProblem(
                    file,
                    1,
                    "",
                    "missing front matter: start the file with a '---' line, "
                            + "the YAML (title: ...), and another '---' line"));
            return new MarkdownFile(file, null, String.join("\n", lines), 1);
        }
        int close = 1;
        while (close < lines.length && !lines[close].strip().equals(FENCE)) {
            close++;
        }
        if (close == lines.length) {
            problems.add(
                    new FileProblem(file, 1, "", "the front matter opened on line 1 is never closed by a '---' line"));
            return new MarkdownFile(file, null, "", lines.length);
        }
        String yaml = String.join("\n", Arrays.copyOfRange(lines, 1, close));
        String body = String.join("\n", Arrays.copyOfRange(lines, close + 1, lines.length));
        YamlDocument front = null;
        try {
            front = YamlDocument.parse(file, "front matter", yaml, 2);
        } catch (YamlException e) {
            problems.addAll(e.problems());
        }
        return new MarkdownFile(file, front, body, close + 2);
    }
}
