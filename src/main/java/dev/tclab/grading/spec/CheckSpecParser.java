package dev.tclab.grading.spec;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.tclab.yaml.Checked;
import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlDocument;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a check spec (docs/checks.md): validated against docs/schema/check.schema.json, bound into records, then
 * held to the rules across fields (value paths and their units, {@code during} and {@code over} references,
 * tolerances). Every problem is reported with file, line and field; the schema's all at once, then the rules'.
 */
public final class CheckSpecParser {

    static final YamlSchema SCHEMA = YamlSchema.load("check.schema.json");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

    /** A check block as written; its measurements are bound one by one, by kind. */
    record CheckFile(
            String id,
            String title,
            List<JsonNode> measure,
            List<AssertionFile> expect,
            Map<String, String> record,
            Integer retries,
            Integer stable,
            String interval,
            String timeout,
            Boolean watch,
            String hint) {}

    /** One assertion as written: a group ({@code all_of}, {@code any_of}) or a value with one comparison. */
    record AssertionFile(
            @JsonProperty("all_of") List<AssertionFile> allOf,
            @JsonProperty("any_of") List<AssertionFile> anyOf,
            String value,
            String equals,
            String near,
            String within,
            List<String> between,
            String above,
            String below,
            String matches,
            @JsonProperty("ratio_to") String ratioTo,
            String message) {}

    private static final TypeReference<Map<String, String>> RECORD = new TypeReference<>() {};

    private CheckSpecParser() {}

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
                int line = firstLine
                        + (int) yaml.substring(0, m.start())
                                .chars()
                                .filter(c -> c == '\n')
                                .count();
                problems.add(new FileProblem(
                        file,
                        line,
                        "",
                        "parameter {{" + m.group(1) + "}} is not declared in the lesson's front matter (parameters: "
                                + String.join(", ", params.keySet()) + ")"));
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
        Checked checked;
        try {
            checked = SCHEMA.check(YamlDocument.parse(file, "the check block", yaml, firstLine));
        } catch (YamlException e) {
            throw new CheckSpecException(e.problems());
        }
        YamlDocument doc = checked.doc();
        // Each part that fits the schema is bound and held to the rules, even when another part does not; what
        // refers to a measurement the schema refused is not reported again.
        Set<String> written = new HashSet<>();
        doc.at("/measure").forEach(entry -> written.add(entry.path("name").asText()));
        Rules rules = new Rules(doc, new ArrayList<>(checked.problems()), new LinkedHashMap<>(), written);
        for (int i = 0; i < doc.at("/measure").size(); i++) {
            if (checked.fits("/measure/" + i)) {
                rules.measurement("/measure/" + i);
            }
        }
        List<Assertion> expect = new ArrayList<>();
        for (int i = 0; i < doc.at("/expect").size(); i++) {
            String at = "/expect/" + i;
            Assertion a = checked.fits(at) ? rules.assertion(at, doc.bind(at, AssertionFile.class)) : null;
            if (a != null) {
                expect.add(a);
            }
        }
        Map<String, ValuePath> record = checked.fits("/record") ? rules.record(doc.bind("/record", RECORD)) : Map.of();
        Duration interval =
                checked.fits("/interval") ? duration(doc.at("/interval").asText()) : Duration.ofSeconds(1);
        Duration timeout =
                checked.fits("/timeout") ? duration(doc.at("/timeout").asText()) : Duration.ofSeconds(60);
        if (timeout.compareTo(MAX_TIMEOUT) > 0 || timeout.isZero()) {
            rules.add("/timeout", "a timeout is between 1s and 10m");
        }
        if (!rules.problems().isEmpty()) {
            throw new CheckSpecException(sorted(rules.problems()));
        }
        CheckFile check = doc.bind("", CheckFile.class);
        return new CheckSpec(
                check.id(),
                check.title(),
                List.copyOf(rules.measurements().values()),
                expect,
                record,
                check.retries() == null ? 0 : check.retries(),
                check.stable() == null ? 1 : check.stable(),
                interval,
                timeout,
                Boolean.TRUE.equals(check.watch()),
                check.hint());
    }

    private static List<FileProblem> sorted(List<FileProblem> problems) {
        return problems.stream()
                .sorted(Comparator.comparingInt(FileProblem::line))
                .toList();
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m} (the schema holds the form). */
    private static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new IllegalStateException("the schema lets through the duration '" + text + "'");
        }
        double amount = Double.parseDouble(m.group(1));
        return Duration.ofMillis(Math.round(amount
                * switch (m.group(2)) {
                    case "ms" -> 1;
                    case "s" -> 1000;
                    default -> 60_000;
                }));
    }

    /** The rules across fields, checked on the bound check; problems are recorded, never thrown. */
    private record Rules(
            YamlDocument doc, List<FileProblem> problems, Map<String, Measurement> measurements, Set<String> written) {

        void add(String pointer, String message) {
            problems.add(doc.problem(pointer, message));
        }

        void measurement(String entry) {
            Measurement.Common common = doc.bind(entry, Measurement.Common.class);
            if ("baseline".equals(common.name())) {
                add(entry + "/name", "'baseline' is reserved for recorded values; pick another name");
            } else if (measurements.containsKey(common.name())) {
                add(entry + "/name", "another measurement is already named '" + common.name() + "'");
            }
            Measurement.Kind<?> kind = Measurement.KINDS.stream()
                    .filter(k -> doc.at(entry).has(k.key()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("the schema lets through a measurement of no kind"));
            if (!kind.beside()) {
                for (String key : CommandMeasurement.ENTRY_OPTIONS) {
                    if (doc.at(entry).has(key)) {
                        add(entry + "/" + key, "'" + key + "' belongs to a 'command' measurement");
                    }
                }
            }
            if (common.during() != null && common.over() != null) {
                add(entry + "/over", "a measurement runs either during a load or over it, not both");
                return;
            }
            Measurement m = create(kind, common, entry);
            if (m == null) {
                return;
            }
            if (m.during() != null) {
                during(entry + "/during", m);
            }
            if (m.over() != null) {
                over(entry + "/over", m);
            }
            measurements.putIfAbsent(m.name(), m);
        }

        private <O> Measurement create(Measurement.Kind<O> kind, Measurement.Common common, String entry) {
            String at = kind.beside() ? entry : YamlDocument.child(entry, kind.key());
            return kind.factory().create(common, doc.bind(at, kind.options()), new OptionReader(doc, at, problems));
        }

        /** The earlier load {@code ref} names, or null (recorded) when it is none. */
        private Measurement loadOf(String at, String ref) {
            Measurement load = measurements.get(ref);
            if (load == null && written.contains(ref)) {
                return null;
            }
            if (load == null) {
                add(
                        at,
                        "'" + ref + "' is not an earlier measurement (earlier: "
                                + String.join(", ", measurements.keySet()) + ")");
                return null;
            }
            if (!load.load()) {
                add(at, "'" + ref + "' is a " + load.kind() + " measurement; 'during' and 'over' need a load (iperf3)");
                return null;
            }
            if (load.during() != null) {
                add(at, "'" + ref + "' itself runs during another measurement");
                return null;
            }
            return load;
        }

        private void during(String at, Measurement m) {
            Measurement load = loadOf(at, m.during());
            if (load == null) {
                return;
            }
            if (m.load()) {
                add(
                        at,
                        "two iperf3 measurements cannot run at once; give one iperf3 measurement several flows "
                                + "(flows: { a: {...}, b: {...} }) to load the link with them together");
                return;
            }
            if (m instanceof PingMeasurement ping
                    && load instanceof Iperf3Measurement iperf
                    && ping.seconds() + 1 >= iperf.seconds()) {
                // The ping starts about 1 s into the load and must end before it, or it measures an idle link.
                add(
                        at,
                        String.format(
                                java.util.Locale.ROOT,
                                "the ping takes %.1f s (count × interval) but must end before '%s' (%d s) does, and starts 1 s into it:"
                                        + " lower count or interval, or raise the load's seconds",
                                ping.seconds(),
                                m.during(),
                                iperf.seconds()));
            }
        }

        private void over(String at, Measurement m) {
            if (!m.counters()) {
                add(
                        at,
                        "'over' reads counters before and after a load: it applies to qdisc, classes and "
                                + "interfaces measurements, not " + m.kind());
                return;
            }
            loadOf(at, m.over());
        }

        Assertion assertion(String at, AssertionFile a) {
            if (a.allOf() != null || a.anyOf() != null) {
                String group = a.allOf() != null ? "all_of" : "any_of";
                List<AssertionFile> items = a.allOf() != null ? a.allOf() : a.anyOf();
                List<Assertion> children = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    Assertion child = assertion(at + "/" + group + "/" + i, items.get(i));
                    if (child != null) {
                        children.add(child);
                    }
                }
                return a.allOf() != null
                        ? new Assertion.AllOf(children, a.message())
                        : new Assertion.AnyOf(children, a.message());
            }
            ValuePath path = path(at + "/value", a.value());
            ValuePath ratioTo = a.ratioTo() == null ? null : path(at + "/ratio_to", a.ratioTo());
            Unit unit = a.ratioTo() != null ? Unit.NONE : fieldUnit(path);
            Comparison comparison = comparison(at, a, unit);
            if (path == null || comparison == null || (a.ratioTo() != null && ratioTo == null)) {
                return null;
            }
            MessageUnits.problem(a.message(), comparison, ratioTo != null ? fieldUnit(path) : unit)
                    .ifPresent(problem -> add(at + "/message", problem));
            return new Assertion.Check(path, ratioTo, comparison, a.message());
        }

        /** The comparison of a value assertion; the schema lets exactly one form through (above and below may pair). */
        private Comparison comparison(String at, AssertionFile a, Unit unit) {
            if (a.within() != null && a.near() == null) {
                add(at + "/within", "'within' goes with 'near'");
            }
            Dimension dimension = unit == null ? null : unit.dimension();
            OptionReader reader = new OptionReader(doc, at, problems);
            if (a.equals() != null) {
                return new Comparison.Equals(
                        a.equals(), Quantity.parse(a.equals()).value().orElse(null));
            }
            if (a.matches() != null) {
                try {
                    return new Comparison.Matches(Pattern.compile(a.matches()));
                } catch (PatternSyntaxException e) {
                    add(at + "/matches", "not a valid regular expression: " + e.getDescription());
                    return null;
                }
            }
            if (a.near() != null) {
                Quantity target = reader.quantity("near", a.near(), dimension);
                Tolerance within = tolerance(at + "/within", a.within(), target);
                return target == null || within == null ? null : new Comparison.Near(target, within);
            }
            if (a.between() != null) {
                Quantity low = reader.quantity("between/0", a.between().get(0), dimension);
                Quantity high = reader.quantity("between/1", a.between().get(1), dimension);
                return low == null || high == null ? null : new Comparison.Between(low, high);
            }
            Quantity above = a.above() == null ? null : reader.quantity("above", a.above(), dimension);
            Quantity below = a.below() == null ? null : reader.quantity("below", a.below(), dimension);
            if ((a.above() != null && above == null) || (a.below() != null && below == null)) {
                return null;
            }
            return new Comparison.Bounds(above, below);
        }

        private Tolerance tolerance(String at, String text, Quantity target) {
            Optional<Quantity> q = Quantity.parse(text).value();
            if (q.isEmpty()) {
                add(at, Quantity.parse(text).problem());
                return null;
            }
            if (q.get().unit() == Unit.PERCENT) {
                if (q.get().value() < 0) {
                    add(at, "a tolerance cannot be negative");
                    return null;
                }
                return Tolerance.percent(q.get().value());
            }
            if (target != null
                    && q.get().hasUnit()
                    && target.hasUnit()
                    && q.get().unit().dimension() != target.unit().dimension()) {
                add(
                        at,
                        "'" + text + "' is " + q.get().unit().dimension().words() + " but near is "
                                + target.unit().dimension().words());
                return null;
            }
            return Tolerance.absolute(q.get());
        }

        Map<String, ValuePath> record(Map<String, String> record) {
            Map<String, ValuePath> result = new LinkedHashMap<>();
            record.forEach((name, text) -> {
                Optional<ValuePath> path = ValuePath.parse(text);
                if (path.isPresent()
                        && !measurements.containsKey(path.get().root())
                        && written.contains(path.get().root())) {
                    return;
                }
                if (path.isEmpty() || !measurements.containsKey(path.get().root())) {
                    add(
                            YamlDocument.child("/record", name),
                            "'" + text + "' is not a value of this check's measurements ("
                                    + String.join(", ", measurements.keySet()) + ")");
                    return;
                }
                result.put(name, path.get());
            });
            return result;
        }

        private ValuePath path(String at, String text) {
            Optional<ValuePath> path = ValuePath.parse(text);
            if (path.isEmpty()) {
                add(at, "'" + text + "' is not a value path like up.mbps or q.root.kind");
                return null;
            }
            ValuePath p = path.get();
            if (p.root().equals("baseline")) {
                if (p.segments().size() != 2) {
                    add(at, "a baseline path is baseline.<name>, e.g. baseline.loaded_ping");
                    return null;
                }
                return p;
            }
            Measurement m = measurements.get(p.root());
            if (m == null && written.contains(p.root())) {
                return null;
            }
            if (m == null) {
                add(
                        at,
                        "'" + p.root() + "' is neither a measurement of this check ("
                                + String.join(", ", measurements.keySet()) + ") nor 'baseline'");
                return null;
            }
            if (p.field() == null || !m.fields().containsKey(p.field())) {
                add(
                        at,
                        "a " + m.kind() + " result has the fields "
                                + String.join(
                                        ", ",
                                        m.fields().keySet().stream().sorted().toList()) + "; found '" + p.field()
                                + "'");
                return null;
            }
            Optional<String> problem = m.pathProblem(p);
            if (problem.isPresent()) {
                add(at, problem.get());
                return null;
            }
            if (m.over() == null && (Counters.readsDelta(p) || p.field().equals(Counters.WINDOW))) {
                add(
                        at,
                        "'" + p + "' is read over a load: add 'over: <load>' to '" + m.name()
                                + "' so its counters are read before and after it");
                return null;
            }
            return p;
        }

        private Unit fieldUnit(ValuePath path) {
            if (path == null || path.root().equals("baseline")) {
                return null;
            }
            Measurement m = measurements.get(path.root());
            return m == null ? null : m.unitAt(path).orElse(null);
        }
    }
}
