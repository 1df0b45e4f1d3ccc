package dev.tclab.grading.parse;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds a regular expression in text output and returns its named groups ({@code (?<rate>\d+)}). */
public final class RegexParser {

    private static final Pattern GROUP_NAME = Pattern.compile("\\(\\?<([a-zA-Z][a-zA-Z0-9]*)>");

    private RegexParser() {}

    /** The group names a pattern declares, in order. */
    public static List<String> groupNames(String regex) {
        return GROUP_NAME.matcher(regex).results().map(r -> r.group(1)).toList();
    }

    /**
     * The named groups of the first match (a group that took no part in the match maps to null), or empty when
     * the pattern is not found.
     */
    public static Optional<Map<String, String>> find(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text == null ? "" : text);
        if (!m.find()) {
            return Optional.empty();
        }
        Map<String, String> groups = new LinkedHashMap<>();
        for (String name : groupNames(pattern.pattern())) {
            groups.put(name, m.group(name));
        }
        return Optional.of(groups);
    }
}
