package dev.tclab.yaml;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** Collects the problems found while reading one author file, with small typed readers that record misuse. */
public final class YamlChecks {

    private final List<FileProblem> problems = new ArrayList<>();

    public List<FileProblem> problems() {
        return problems;
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    public void add(FileProblem problem) {
        problems.add(problem);
    }

    public void add(YamlNode at, String message) {
        problems.add(at.problem(message));
    }

    /** Records every key of {@code map} that is not in {@code allowed}. */
    public void onlyKeys(YamlNode map, Collection<String> allowed) {
        for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
            if (!allowed.contains(e.getKey())) {
                add(e.getValue(), "unknown field; expected one of " + String.join(", ", allowed));
            }
        }
    }

    /** The mapping under {@code key}, or null (recording a problem if it is there but not a mapping, or required). */
    public YamlNode map(YamlNode parent, String key, boolean required) {
        YamlNode value = parent.get(key);
        if (value == null) {
            if (required) {
                add(parent.problem("missing required field '" + key + "' (a mapping)"));
            }
            return null;
        }
        if (!value.isMap()) {
            add(value, "expected a mapping, found " + value.kind());
            return null;
        }
        return value;
    }

    /** The list under {@code key}; empty when absent (or required and missing, which is recorded). */
    public List<YamlNode> list(YamlNode parent, String key, boolean required) {
        YamlNode value = parent.get(key);
        if (value == null) {
            if (required) {
                add(parent.problem("missing required field '" + key + "' (a list)"));
            }
            return List.of();
        }
        if (!value.isList()) {
            add(value, "expected a list, found " + value.kind());
            return List.of();
        }
        return value.items();
    }

    /** The scalar text under {@code key}, or {@code fallback} when absent. */
    public String text(YamlNode parent, String key, String fallback, boolean required) {
        YamlNode value = parent.get(key);
        if (value == null) {
            if (required) {
                add(parent.problem("missing required field '" + key + "'"));
            }
            return fallback;
        }
        return scalar(value, fallback);
    }

    /** The node's text, recording a problem when it is a list or mapping. */
    public String scalar(YamlNode value, String fallback) {
        if (!value.isScalar()) {
            add(value, "expected a single value, found " + value.kind());
            return fallback;
        }
        return value.text();
    }

    /** A true/false field. */
    public boolean bool(YamlNode parent, String key, boolean fallback) {
        String text = text(parent, key, null, false);
        if (text == null) {
            return fallback;
        }
        if (Set.of("true", "yes").contains(text)) {
            return true;
        }
        if (Set.of("false", "no").contains(text)) {
            return false;
        }
        add(parent.get(key), "expected true or false, found '" + text + "'");
        return fallback;
    }

    /** Records a problem when the text fails {@code test}. */
    public void require(YamlNode at, String text, Predicate<String> test, String expectation) {
        if (text != null && !test.test(text)) {
            add(at, "'" + text + "' is not valid: " + expectation);
        }
    }
}
