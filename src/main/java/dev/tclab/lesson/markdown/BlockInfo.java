package dev.tclab.lesson.markdown;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The info string of a fenced block: the block type, an optional node, and {@code key=value} attributes,
 * e.g. {@code cmd client if=qdisc:cake}.
 *
 * @param problems what is wrong with the info string itself, in words for the author
 */
record BlockInfo(String type, String node, Map<String, String> attributes, List<String> problems) {

    static final Set<String> LESSON_BLOCKS = Set.of("cmd", "check", "quiz", "hint", "solution", "prose");
    /** Ordinary code blocks an author may show as-is; anything else is taken for a misspelt lesson block. */
    static final Set<String> DISPLAY_LANGUAGES = Set.of(
            "",
            "text",
            "plain",
            "console",
            "output",
            "sh",
            "bash",
            "shell",
            "yaml",
            "yml",
            "json",
            "ini",
            "conf",
            "diff",
            "c",
            "python",
            "toml",
            "xml",
            "csv",
            "markdown",
            "md");

    static final Set<String> ATTRIBUTES = Set.of("if", "unless");

    static BlockInfo parse(String info) {
        String[] words = info.strip().split("\\s+");
        String type = words[0];
        String node = null;
        Map<String, String> attributes = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (int i = 1; i < words.length; i++) {
            String word = words[i];
            int eq = word.indexOf('=');
            if (eq > 0) {
                String key = word.substring(0, eq);
                if (!ATTRIBUTES.contains(key)) {
                    problems.add("unknown attribute '" + key + "'; blocks take if=<feature> and unless=<feature>");
                } else if (attributes.put(key, word.substring(eq + 1)) != null) {
                    problems.add("attribute '" + key + "' is given twice");
                }
            } else if (node == null) {
                node = word;
            } else {
                problems.add("unexpected '" + word + "' after node '" + node + "'; write attributes as key=value");
            }
        }
        return new BlockInfo(type, node, attributes, problems);
    }

    boolean isLessonBlock() {
        return LESSON_BLOCKS.contains(type);
    }

    boolean isDisplayLanguage() {
        return DISPLAY_LANGUAGES.contains(type);
    }

    /** The feature named by {@code if=}, or null. */
    String ifFeature() {
        return attributes.get("if");
    }

    /** The feature named by {@code unless=}, or null. */
    String unlessFeature() {
        return attributes.get("unless");
    }

    /** Whether an {@code if=} or {@code unless=} can hide the block on some kernel. */
    boolean isGuarded() {
        return ifFeature() != null || unlessFeature() != null;
    }

    /** The guard as the author wrote it, e.g. {@code if=qdisc:cake} or {@code if=qdisc:cake unless=link:ifb}. */
    String guardWords() {
        List<String> words = new ArrayList<>();
        if (ifFeature() != null) {
            words.add("if=" + ifFeature());
        }
        if (unlessFeature() != null) {
            words.add("unless=" + unlessFeature());
        }
        return String.join(" ", words);
    }
}
