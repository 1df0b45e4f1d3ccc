package dev.tclab.grading.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dotted path into measured values: {@code up.mbps}, {@code q.root.options.rate}, {@code q.by_handle[20:].kind},
 * {@code classes.by_id[1:10].rate}, {@code baseline.loaded_ping}. Brackets hold a list index or a key that may contain
 * dots or colons.
 */
public record ValuePath(String text, List<String> segments) {

    private static final Pattern SEGMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)((?:\\[[^\\]]+\\])*)");
    private static final Pattern SELECTOR = Pattern.compile("\\[([^\\]]+)\\]");

    /** The path, or empty when it is not of the form {@code name.field[key].field}. */
    public static Optional<ValuePath> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        List<String> segments = new ArrayList<>();
        int pos = 0;
        Matcher m = SEGMENT.matcher(text);
        while (pos < text.length()) {
            if (!m.find(pos) || m.start() != pos) {
                return Optional.empty();
            }
            segments.add(m.group(1));
            Matcher selector = SELECTOR.matcher(m.group(2));
            while (selector.find()) {
                segments.add(selector.group(1).strip());
            }
            pos = m.end();
            if (pos < text.length()) {
                if (text.charAt(pos) != '.' || pos == text.length() - 1) {
                    return Optional.empty();
                }
                pos++;
            }
        }
        return Optional.of(new ValuePath(text, List.copyOf(segments)));
    }

    /** The measurement name, or {@code baseline}. */
    public String root() {
        return segments.get(0);
    }

    /** The first segment after the root, or null. */
    public String field() {
        return segments.size() > 1 ? segments.get(1) : null;
    }

    @Override
    public String toString() {
        return text;
    }
}
