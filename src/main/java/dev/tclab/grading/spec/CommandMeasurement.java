package dev.tclab.grading.spec;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.parse.IpParser;
import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.grading.parse.RegexParser;
import dev.tclab.runtime.ExecResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code command: "..."} with {@code parse}, {@code regex} and {@code unit} beside it: a shell command in the
 * node's measurement sidecar, its output read as text (optionally through a regex), JSON, {@code ip -j} output, or
 * its exit code alone.
 *
 * @param unit the unit of the numbers its output is read into (regex groups, JSON), or null: plain numbers
 */
public record CommandMeasurement(Common common, String command, Parse parse, Pattern regex, Unit unit)
        implements Measurement {

    /** How a command's output is read. */
    public enum Parse {
        TEXT,
        JSON,
        IP,
        EXIT
    }

    /** Options that sit beside {@code command} in the entry rather than under it. */
    static final List<String> ENTRY_OPTIONS = List.of("parse", "regex", "unit");

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** A command's stdout and stderr as values to check (kept with the run): enough for any lesson's check. */
    static final int MAX_VALUE_CHARS = 64 * 1024;
    /** Output read as JSON: its tree is kept with the run, and is several times the text's size. */
    static final int MAX_JSON_CHARS = 256 * 1024;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Map<String, Unit> FIELDS = Map.of(
            "exit_code",
            Unit.NONE,
            "ok",
            Unit.NONE,
            "stdout",
            Unit.NONE,
            "stderr",
            Unit.NONE,
            "json",
            Unit.NONE,
            "match",
            Unit.NONE,
            "matched",
            Unit.NONE,
            "interfaces",
            Unit.NONE);

    /**
     * A command entry's own keys as written, beside {@code command} (docs/schema/check.schema.json, $defs/measurement);
     * the keys every measurement has are read into {@link Common}.
     */
    @JsonIgnoreProperties({"name", "node", "during", "over"})
    public record Options(String command, String parse, String regex, String unit) {}

    static Measurement of(Common common, Options options, OptionReader reader) {
        if (options.command().isBlank()) {
            reader.add("command", "expected the command line to run, e.g. \"ip -j addr show dev eth1\"");
            return null;
        }
        Parse parse = options.parse() == null
                ? Parse.TEXT
                : Parse.valueOf(options.parse().toUpperCase(Locale.ROOT));
        Pattern regex = null;
        if (options.regex() != null) {
            if (parse != Parse.TEXT) {
                reader.add("regex", "regex works on text output; set 'parse: text'");
            }
            try {
                regex = Pattern.compile(options.regex());
                if (RegexParser.groupNames(options.regex()).isEmpty()) {
                    reader.add("regex", "give the regex named groups, e.g. (?<rate>\\d+), to use as values");
                }
            } catch (PatternSyntaxException e) {
                reader.add("regex", "not a valid regular expression: " + e.getDescription());
            }
        }
        Unit unit = unit(options.unit(), reader, parse, options.regex());
        return new CommandMeasurement(common, options.command(), parse, regex, unit);
    }

    /**
     * The unit the author declares for a command's numbers ({@code unit: Mbit/s}): the numbers of a regex's groups
     * or of JSON output carry it, so unit expectations on them validate; without it they are plain numbers.
     */
    private static Unit unit(String text, OptionReader reader, Parse parse, String regex) {
        if (text == null) {
            return null;
        }
        Optional<Unit> unit = Quantity.unitNamed(text);
        if (unit.isEmpty()) {
            reader.add(
                    "unit",
                    "'" + text + "' is not a unit; use bit/s, kbit/s, Mbit/s, Gbit/s, bytes/s, "
                            + "bytes, kb, mb, gb, us, ms, s or %");
        } else if (parse != Parse.JSON && regex == null) {
            reader.add(
                    "unit",
                    "'unit' applies to the numbers a command's output is read into: add a "
                            + "regex with named groups, or 'parse: json'");
            return null;
        }
        return unit.orElse(null);
    }

    @Override
    public String kind() {
        return "command";
    }

    @Override
    public List<String> argv() {
        return List.of("sh", "-c", command);
    }

    @Override
    public Duration timeout() {
        return TIMEOUT;
    }

    @Override
    public MeasurementOutcome read(ExecResult exec) {
        String raw = OutputReader.excerptOfRaw(exec);
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("exit_code", new Measure(exec.exitCode(), Unit.NONE));
        tree.put("ok", exec.exitCode() == 0);
        tree.put("stdout", head(exec.stdout().strip()));
        tree.put("stderr", head(exec.stderr().strip()));
        try {
            switch (parse) {
                case JSON -> tree.put("json", unit == null ? json(exec.stdout()) : inUnit(json(exec.stdout()), unit));
                case IP -> tree.put("interfaces", ResultTrees.interfaces(IpParser.parse(exec.stdout())));
                case TEXT -> {
                    if (regex != null) {
                        Optional<Map<String, String>> groups = RegexParser.find(regex, exec.stdout());
                        tree.put("matched", groups.isPresent());
                        groups.ifPresent(g -> tree.put("match", matchTree(g, unit == null ? Unit.NONE : unit)));
                    }
                }
                case EXIT -> {
                    // the exit code and output are all there is
                }
            }
        } catch (OutputParseException e) {
            return OutputReader.unreadable(raw, e);
        }
        return OutputReader.ok(tree, raw);
    }

    /** Named groups that read as numbers become numbers, so {@code above}/{@code below} work on them. */
    private static Map<String, Object> matchTree(Map<String, String> groups, Unit unit) {
        Map<String, Object> tree = new LinkedHashMap<>();
        groups.forEach((name, value) -> {
            if (value != null) {
                tree.put(
                        name, value.matches("-?\\d+(\\.\\d+)?") ? new Measure(Double.parseDouble(value), unit) : value);
            }
        });
        return tree;
    }

    /** The same JSON tree with every number in the author's declared unit. */
    private static Object inUnit(Object value, Unit unit) {
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, inUnit(v, unit)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> inUnit(v, unit)).toList();
        }
        return value instanceof Measure measure ? new Measure(measure.value(), unit) : value;
    }

    private static String head(String text) {
        return text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS);
    }

    @SuppressWarnings("unchecked")
    private static Object json(String stdout) throws OutputParseException {
        if (stdout.length() > MAX_JSON_CHARS) {
            throw new OutputParseException("the output is " + stdout.length() + " characters; at most " + MAX_JSON_CHARS
                    + " are read as JSON");
        }
        try {
            Object value = MAPPER.readValue(stdout, Object.class);
            if (value == null) {
                throw new OutputParseException("expected JSON output, found empty output");
            }
            return value instanceof Map<?, ?> map
                    ? ResultTrees.convert((Map<String, Object>) map)
                    : ResultTrees.convertValue("", value);
        } catch (JsonProcessingException e) {
            throw new OutputParseException(
                    "expected JSON output, found " + OutputReader.excerpt(stdout) + " (" + e.getOriginalMessage() + ")",
                    e);
        }
    }

    @Override
    public Map<String, Unit> fields() {
        return FIELDS;
    }

    /**
     * A command's values have no unit unless the author declares one for its numbers; JSON numbers under tc's own
     * key names (rate, burst, ...) have tc's unit, as at run time ({@link ResultTrees#unitOfKey}).
     */
    @Override
    public Optional<Unit> unitAt(ValuePath path) {
        boolean parsed = "match".equals(path.field()) || "json".equals(path.field());
        if (parsed && unit != null) {
            return Optional.of(unit);
        }
        return Optional.of("json".equals(path.field()) ? ResultTrees.unitOfKey(Counters.lastKey(path)) : Unit.NONE);
    }
}
