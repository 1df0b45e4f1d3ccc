package dev.tclab.grading;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads and validates a check spec (docs/checks.md). Every problem is reported with file, line and field; the
 * parser does not stop at the first one.
 */
public final class CheckSpecParser {

    private static final List<String> TOP_KEYS = List.of("id", "title", "measure", "expect", "record", "retries",
            "stable", "interval", "timeout", "watch", "hint");
    private static final List<String> MEASURE_KEYS = measureKeys();
    private static final String KIND_KEYS = String.join(", ", Measurement.KINDS.stream().map(Measurement.Kind::key).toList());
    private static final List<String> COMPARISONS = List.of("equals", "near", "between", "above", "below", "matches");
    private static final List<String> CHECK_KEYS = List.of("value", "equals", "near", "within", "between", "above",
            "below", "matches", "ratio_to", "message");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

    private CheckSpecParser() {
    }

    private static List<String> measureKeys() {
        List<String> keys = new ArrayList<>(List.of("name", "node", "during", "over"));
        Measurement.KINDS.forEach(k -> keys.add(k.key()));
        keys.addAll(CommandMeasurement.ENTRY_OPTIONS);
        return List.copyOf(keys);
    }

    /**
     * Substitutes the lesson's parameters ({@code {{rate}}}) and parses. A placeholder with no parameter is a
     * problem at its line.
     */
    public static CheckSpec parse(String file, String yaml, int firstLine, Map<String, String> params)
            throws CheckSpecException {
        List<FileProblem> problems = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(yaml);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = params.get(m.group(1));
            if (value == null) {
                int line = firstLine + (int) yaml.substring(0, m.start()).chars().filter(c -> c == '\n').count();
                problems.add(new FileProblem(file, line, "", "parameter {{" + m.group(1)
                        + "}} is not declared in the lesson's front matter (parameters: " + String.join(", ", params.keySet()) + ")"));
                value = m.group();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        if (!problems.isEmpty()) {
            throw new CheckSpecException(problems);
        }
        return parse(file, out.toString(), firstLine);
    }

    /** Parses YAML whose parameters are already substituted. {@code firstLine} is the file line of its first line. */
    public static CheckSpec parse(String file, String yaml, int firstLine) throws CheckSpecException {
        YamlNode root;
        try {
            root = YamlNode.parse(file, "the check block", yaml, firstLine);
        } catch (YamlException e) {
            throw new CheckSpecException(List.of(e.problem()));
        }
        YamlChecks checks = new YamlChecks();
        if (!root.isMap()) {
            checks.add(root, "a check is a mapping with 'measure' and 'expect' (see docs/checks.md)");
            throw new CheckSpecException(checks.problems());
        }
        checks.onlyKeys(root, TOP_KEYS);
        Map<String, Measurement> measurements = new LinkedHashMap<>();
        for (YamlNode item : checks.list(root, "measure", true)) {
            readMeasurement(checks, item, measurements);
        }
        if (root.get("measure") != null && root.get("measure").isList() && measurements.isEmpty() && checks.ok()) {
            checks.add(root.get("measure"), "a check measures at least one thing");
        }
        List<Assertion> expect = new ArrayList<>();
        for (YamlNode item : checks.list(root, "expect", false)) {
            Assertion assertion = readAssertion(checks, item, measurements);
            if (assertion != null) {
                expect.add(assertion);
            }
        }
        Map<String, ValuePath> record = readRecord(checks, root.get("record"), measurements);
        int retries = integer(checks, root, "retries", 0, 0, 10);
        int stable = integer(checks, root, "stable", 1, 1, 10);
        Duration interval = duration(checks, root, "interval", Duration.ofSeconds(1));
        Duration timeout = duration(checks, root, "timeout", Duration.ofSeconds(60));
        if (timeout.compareTo(MAX_TIMEOUT) > 0 || timeout.isZero()) {
            checks.add(root.get("timeout"), "a timeout is between 1s and 10m");
        }
        boolean watch = checks.bool(root, "watch", false);
        String id = checks.text(root, "id", null, false);
        checks.require(root.get("id"), id, NAME.asMatchPredicate().or(s -> s.matches("[a-z0-9][a-z0-9-]{0,63}")),
                "an id is lowercase letters, digits and '-'");
        if (!checks.ok()) {
            throw new CheckSpecException(checks.problems());
        }
        return new CheckSpec(id, checks.text(root, "title", null, false), List.copyOf(measurements.values()), expect,
                record, retries, stable, interval, timeout, watch, checks.text(root, "hint", null, false));
    }

    private static void readMeasurement(YamlChecks checks, YamlNode item, Map<String, Measurement> earlier) {
        if (!item.isMap()) {
            checks.add(item, "expected a measurement: name, node and one of " + KIND_KEYS);
            return;
        }
        checks.onlyKeys(item, MEASURE_KEYS);
        String name = checks.text(item, "name", null, true);
        String node = checks.text(item, "node", null, true);
        checks.require(item.get("name"), name, NAME.asMatchPredicate(), "a name is a lowercase letter, then letters, digits or '_'");
        if ("baseline".equals(name)) {
            checks.add(item.get("name"), "'baseline' is reserved for recorded values; pick another name");
        } else if (name != null && earlier.containsKey(name)) {
            checks.add(item.get("name"), "another measurement is already named '" + name + "'");
        }
        List<Measurement.Kind> kinds = Measurement.KINDS.stream().filter(k -> item.get(k.key()) != null).toList();
        if (kinds.size() != 1) {
            checks.add(item, kinds.isEmpty()
                    ? "a measurement needs one of: " + KIND_KEYS
                    : "a measurement has exactly one kind, found " + kinds.stream().map(Measurement.Kind::key).toList());
            return;
        }
        Measurement.Kind kind = kinds.get(0);
        if (!kind.key().equals("command")) {
            for (String key : CommandMeasurement.ENTRY_OPTIONS) {
                if (item.get(key) != null) {
                    checks.add(item.get(key), "'" + key + "' belongs to a 'command' measurement");
                }
            }
        }
        String during = checks.text(item, "during", null, false);
        String over = checks.text(item, "over", null, false);
        if (during != null && over != null) {
            checks.add(item.get("over"), "a measurement runs either during a load or over it, not both");
            over = null;
        }
        Measurement m = kind.reader().read(new Measurement.Common(name, node, during, over), item, new OptionReader(checks));
        if (m == null) {
            return;
        }
        if (during != null) {
            checkDuring(checks, item.get("during"), m, earlier);
        }
        if (over != null) {
            checkOver(checks, item.get("over"), m, earlier);
        }
        if (name != null && node != null) {
            earlier.put(name, m);
        }
    }

    /** The earlier load {@code m} refers to, or null (recorded) when it is none. */
    private static Measurement loadOf(YamlChecks checks, YamlNode at, String ref, Map<String, Measurement> earlier) {
        Measurement load = earlier.get(ref);
        if (load == null) {
            checks.add(at, "'" + ref + "' is not an earlier measurement (earlier: " + String.join(", ", earlier.keySet()) + ")");
            return null;
        }
        if (!load.load()) {
            checks.add(at, "'" + ref + "' is a " + load.kind() + " measurement; 'during' and 'over' need a load (iperf3)");
            return null;
        }
        if (load.during() != null) {
            checks.add(at, "'" + ref + "' itself runs during another measurement");
            return null;
        }
        return load;
    }

    private static void checkDuring(YamlChecks checks, YamlNode at, Measurement m, Map<String, Measurement> earlier) {
        Measurement load = loadOf(checks, at, m.during(), earlier);
        if (load == null) {
            return;
        }
        if (m.load()) {
            checks.add(at, "two iperf3 measurements cannot run at once; give one iperf3 measurement several flows "
                    + "(flows: { a: {...}, b: {...} }) to load the link with them together");
            return;
        }
        if (m instanceof PingMeasurement ping && load instanceof Iperf3Measurement iperf) {
            // The ping starts about 1 s into the load and must end before it, or it measures an idle link.
            if (ping.seconds() + 1 >= iperf.seconds()) {
                checks.add(at, String.format(java.util.Locale.ROOT,
                        "the ping takes %.1f s (count × interval) but must end before '%s' (%d s) does, and starts 1 s into it:"
                                + " lower count or interval, or raise the load's seconds", ping.seconds(), m.during(), iperf.seconds()));
            }
        }
    }

    private static void checkOver(YamlChecks checks, YamlNode at, Measurement m, Map<String, Measurement> earlier) {
        if (!m.counters()) {
            checks.add(at, "'over' reads counters before and after a load: it applies to qdisc, classes and "
                    + "interfaces measurements, not " + m.kind());
            return;
        }
        loadOf(checks, at, m.over(), earlier);
    }

    private static Assertion readAssertion(YamlChecks checks, YamlNode item, Map<String, Measurement> measurements) {
        if (!item.isMap()) {
            checks.add(item, "expected an assertion: value with equals/near/between/above/below/matches, or all_of/any_of");
            return null;
        }
        for (String group : List.of("all_of", "any_of")) {
            if (item.get(group) != null) {
                checks.onlyKeys(item, List.of(group, "message"));
                List<Assertion> children = new ArrayList<>();
                for (YamlNode child : checks.list(item, group, true)) {
                    Assertion a = readAssertion(checks, child, measurements);
                    if (a != null) {
                        children.add(a);
                    }
                }
                if (item.get(group).isList() && item.get(group).items().isEmpty()) {
                    checks.add(item.get(group), group + " needs at least one assertion");
                }
                String message = checks.text(item, "message", null, false);
                return group.equals("all_of") ? new Assertion.AllOf(children, message) : new Assertion.AnyOf(children, message);
            }
        }
        checks.onlyKeys(item, CHECK_KEYS);
        ValuePath path = path(checks, item, "value", measurements, true);
        ValuePath ratioTo = item.get("ratio_to") == null ? null : path(checks, item, "ratio_to", measurements, true);
        Unit unit = ratioTo != null ? Unit.NONE : fieldUnit(path, measurements);
        Comparison comparison = readComparison(checks, item, unit);
        if (path == null || comparison == null || (item.get("ratio_to") != null && ratioTo == null)) {
            return null;
        }
        String message = checks.text(item, "message", null, false);
        MessageUnits.problem(message, comparison, ratioTo != null ? fieldUnit(path, measurements) : unit)
                .ifPresent(problem -> checks.add(item.get("message"), problem));
        return new Assertion.Check(path, ratioTo, comparison, message);
    }

    private static Comparison readComparison(YamlChecks checks, YamlNode item, Unit unit) {
        List<String> present = COMPARISONS.stream().filter(k -> item.get(k) != null).toList();
        boolean bounds = !present.isEmpty() && present.stream().allMatch(k -> k.equals("above") || k.equals("below"));
        if (present.isEmpty() || (present.size() > 1 && !bounds)) {
            checks.add(item, present.isEmpty()
                    ? "an assertion needs one of: equals, near (with within), between, above, below, matches"
                    : "an assertion has one comparison (above and below may go together), found " + present);
            return null;
        }
        if (item.get("within") != null && !present.contains("near")) {
            checks.add(item.get("within"), "'within' goes with 'near'");
        }
        Dimension dimension = unit == null ? null : unit.dimension();
        String kind = present.get(0);
        switch (kind) {
            case "equals" -> {
                String text = checks.scalar(item.get("equals"), null);
                return text == null ? null : new Comparison.Equals(text, Quantity.parse(text).value().orElse(null));
            }
            case "matches" -> {
                String regex = checks.scalar(item.get("matches"), null);
                try {
                    return regex == null ? null : new Comparison.Matches(Pattern.compile(regex));
                } catch (PatternSyntaxException e) {
                    checks.add(item.get("matches"), "not a valid regular expression: " + e.getDescription());
                    return null;
                }
            }
            case "near" -> {
                Quantity target = quantityOf(checks, item.get("near"), dimension);
                Tolerance within = tolerance(checks, item, target);
                return target == null || within == null ? null : new Comparison.Near(target, within);
            }
            case "between" -> {
                List<YamlNode> ends = checks.list(item, "between", true);
                if (ends.size() != 2) {
                    checks.add(item.get("between"), "between takes two values: [low, high]");
                    return null;
                }
                Quantity low = quantityOf(checks, ends.get(0), dimension);
                Quantity high = quantityOf(checks, ends.get(1), dimension);
                return low == null || high == null ? null : new Comparison.Between(low, high);
            }
            default -> {
                Quantity above = item.get("above") == null ? null : quantityOf(checks, item.get("above"), dimension);
                Quantity below = item.get("below") == null ? null : quantityOf(checks, item.get("below"), dimension);
                if ((item.get("above") != null && above == null) || (item.get("below") != null && below == null)) {
                    return null;
                }
                return new Comparison.Bounds(above, below);
            }
        }
    }

    private static Tolerance tolerance(YamlChecks checks, YamlNode item, Quantity target) {
        YamlNode within = item.get("within");
        if (within == null) {
            checks.add(item, "'near' needs 'within': a percentage (15%) or an absolute amount (2mbit)");
            return null;
        }
        String text = checks.scalar(within, null);
        if (text == null) {
            return null;
        }
        Optional<Quantity> q = Quantity.parse(text).value();
        if (q.isEmpty()) {
            checks.add(within, Quantity.parse(text).problem());
            return null;
        }
        if (q.get().unit() == Unit.PERCENT) {
            if (q.get().value() < 0) {
                checks.add(within, "a tolerance cannot be negative");
                return null;
            }
            return Tolerance.percent(q.get().value());
        }
        if (target != null && q.get().hasUnit() && target.hasUnit() && q.get().unit().dimension() != target.unit().dimension()) {
            checks.add(within, "'" + text + "' is " + q.get().unit().dimension().words() + " but near is "
                    + target.unit().dimension().words());
            return null;
        }
        return Tolerance.absolute(q.get());
    }

    private static Map<String, ValuePath> readRecord(YamlChecks checks, YamlNode record, Map<String, Measurement> measurements) {
        Map<String, ValuePath> result = new LinkedHashMap<>();
        if (record == null) {
            return result;
        }
        if (!record.isMap()) {
            checks.add(record, "expected a mapping of baseline names to values, e.g. loaded_ping: lat.avg_ms");
            return result;
        }
        record.entries().forEach((name, value) -> {
            checks.require(value, name, NAME.asMatchPredicate(), "a baseline name is a lowercase letter, then letters, digits or '_'");
            String text = checks.scalar(value, null);
            Optional<ValuePath> path = ValuePath.parse(text);
            if (text == null) {
                return;
            }
            if (path.isEmpty() || !measurements.containsKey(path.get().root())) {
                checks.add(value, "'" + text + "' is not a value of this check's measurements (" + String.join(", ", measurements.keySet()) + ")");
                return;
            }
            result.put(name, path.get());
        });
        return result;
    }

    private static ValuePath path(YamlChecks checks, YamlNode item, String key, Map<String, Measurement> measurements,
                                  boolean required) {
        String text = checks.text(item, key, null, required);
        if (text == null) {
            return null;
        }
        Optional<ValuePath> path = ValuePath.parse(text);
        if (path.isEmpty()) {
            checks.add(item.get(key), "'" + text + "' is not a value path like up.mbps or q.root.kind");
            return null;
        }
        ValuePath p = path.get();
        if (p.root().equals("baseline")) {
            if (p.segments().size() != 2) {
                checks.add(item.get(key), "a baseline path is baseline.<name>, e.g. baseline.loaded_ping");
                return null;
            }
            return p;
        }
        Measurement m = measurements.get(p.root());
        if (m == null) {
            checks.add(item.get(key), "'" + p.root() + "' is neither a measurement of this check ("
                    + String.join(", ", measurements.keySet()) + ") nor 'baseline'");
            return null;
        }
        if (p.field() == null || !m.fields().containsKey(p.field())) {
            checks.add(item.get(key), "a " + m.kind() + " result has the fields "
                    + String.join(", ", m.fields().keySet().stream().sorted().toList()) + "; found '" + p.field() + "'");
            return null;
        }
        Optional<String> problem = m.pathProblem(p);
        if (problem.isPresent()) {
            checks.add(item.get(key), problem.get());
            return null;
        }
        if (m.over() == null && (Counters.readsDelta(p) || p.field().equals(Counters.WINDOW))) {
            checks.add(item.get(key), "'" + p + "' is read over a load: add 'over: <load>' to '" + m.name()
                    + "' so its counters are read before and after it");
            return null;
        }
        return p;
    }

    private static Unit fieldUnit(ValuePath path, Map<String, Measurement> measurements) {
        if (path == null || path.root().equals("baseline")) {
            return null;
        }
        Measurement m = measurements.get(path.root());
        return m == null ? null : m.unitAt(path).orElse(null);
    }

    private static Quantity quantityOf(YamlChecks checks, YamlNode at, Dimension dimension) {
        return new OptionReader(checks).quantity(at, dimension);
    }



    private static int integer(YamlChecks checks, YamlNode parent, String key, int fallback, int min, int max) {
        return new OptionReader(checks).integer(parent, key, fallback, min, max);
    }


    private static Duration duration(YamlChecks checks, YamlNode parent, String key, Duration fallback) {
        String text = checks.text(parent, key, null, false);
        if (text == null) {
            return fallback;
        }
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            checks.add(parent.get(key), "expected a duration such as 500ms, 2s or 1m, found '" + text + "'");
            return fallback;
        }
        double amount = Double.parseDouble(m.group(1));
        long millis = Math.round(amount * switch (m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1000;
            default -> 60_000;
        });
        return Duration.ofMillis(millis);
    }

}
