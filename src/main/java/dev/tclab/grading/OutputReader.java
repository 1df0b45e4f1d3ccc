package dev.tclab.grading;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tclab.grading.parse.IpParser;
import dev.tclab.grading.parse.IperfParser;
import dev.tclab.grading.parse.IperfResult;
import dev.tclab.grading.parse.OutputParseException;
import dev.tclab.grading.parse.PingParser;
import dev.tclab.grading.parse.RegexParser;
import dev.tclab.lab.ExecResult;
import dev.tclab.tc.ClassParser;
import dev.tclab.tc.FilterParser;
import dev.tclab.tc.QdiscParser;
import dev.tclab.tc.TcParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Turns a measurement's exec result into its value tree, or into an error a learner can act on. */
final class OutputReader {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Raw output kept per measurement for the learner to read (the API returns it): enough for any error message. */
    static final int MAX_RAW_CHARS = 4096;
    /** A command's stdout and stderr as values to check (kept with the run): enough for any lesson's check. */
    static final int MAX_VALUE_CHARS = 64 * 1024;
    /** Output read as JSON: its tree is kept with the run, and is several times the text's size. */
    static final int MAX_JSON_CHARS = 256 * 1024;

    private OutputReader() {
    }

    static MeasurementOutcome read(Measurement m, ExecResult exec) {
        String raw = excerptOfRaw(exec);
        if (exec.timedOut()) {
            return new MeasurementOutcome(Map.of(), raw, m.kind().key() + " did not finish within "
                    + Commands.timeout(m).toSeconds() + " s");
        }
        if (m.kind().isTc() && exec.exitCode() != 0) {
            return failed(raw, "tc failed: " + firstLine(exec));
        }
        try {
            return switch (m.kind()) {
                case IPERF3 -> iperf(exec, raw);
                case PING -> exec.exitCode() > 1
                        ? failed(raw, "ping could not run: " + firstLine(exec))
                        : ok(ResultTrees.ping(PingParser.parse(exec.stdout())), raw);
                case QDISC -> ok(ResultTrees.qdiscs(QdiscParser.parseJson(exec.stdout(), m.options().get("dev"))), raw);
                case CLASSES -> ok(ResultTrees.classes(ClassParser.parse(exec.stdout())), raw);
                case FILTERS -> ok(ResultTrees.filters(FilterParser.parse(exec.stdout())), raw);
                case COMMAND -> command(m, exec, raw);
            };
        } catch (OutputParseException | TcParseException e) {
            return failed(raw, "the output could not be read: " + e.getMessage());
        }
    }

    private static MeasurementOutcome iperf(ExecResult exec, String raw) throws OutputParseException {
        IperfResult result = IperfParser.parse(exec.stdout());
        if (result.failed()) {
            return new MeasurementOutcome(ResultTrees.iperf(result), raw, "iperf3 reported: " + result.error());
        }
        return ok(ResultTrees.iperf(result), raw);
    }

    private static MeasurementOutcome command(Measurement m, ExecResult exec, String raw) throws OutputParseException {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("exit_code", new Measure(exec.exitCode(), Unit.NONE));
        tree.put("ok", exec.exitCode() == 0);
        tree.put("stdout", head(exec.stdout().strip(), MAX_VALUE_CHARS));
        tree.put("stderr", head(exec.stderr().strip(), MAX_VALUE_CHARS));
        // The author's unit for the command's numbers (validated by CheckSpecParser), or none.
        Unit unit = m.options().containsKey("unit") ? Unit.valueOf(m.option("unit", "")) : null;
        switch (m.option("parse", "text")) {
            case "json" -> tree.put("json", unit == null ? json(exec.stdout()) : inUnit(json(exec.stdout()), unit));
            case "ip" -> tree.put("interfaces", ResultTrees.interfaces(IpParser.parse(exec.stdout())));
            case "text" -> {
                if (m.options().containsKey("regex")) {
                    Optional<Map<String, String>> groups = RegexParser.find(Pattern.compile(m.option("regex", "")), exec.stdout());
                    tree.put("matched", groups.isPresent());
                    groups.ifPresent(g -> tree.put("match", matchTree(g, unit == null ? Unit.NONE : unit)));
                }
            }
            default -> {
                // "exit": the exit code and output are all there is.
            }
        }
        return ok(tree, raw);
    }

    /** Named groups that read as numbers become numbers, so {@code above}/{@code below} work on them. */
    private static Map<String, Object> matchTree(Map<String, String> groups, Unit unit) {
        Map<String, Object> tree = new LinkedHashMap<>();
        groups.forEach((name, value) -> {
            if (value != null) {
                tree.put(name, value.matches("-?\\d+(\\.\\d+)?") ? new Measure(Double.parseDouble(value), unit) : value);
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

    private static String head(String text, int chars) {
        return text.length() <= chars ? text : text.substring(0, chars);
    }

    @SuppressWarnings("unchecked")
    private static Object json(String stdout) throws OutputParseException {
        if (stdout.length() > MAX_JSON_CHARS) {
            throw new OutputParseException("the output is " + stdout.length() + " characters; at most "
                    + MAX_JSON_CHARS + " are read as JSON");
        }
        try {
            Object value = MAPPER.readValue(stdout, Object.class);
            if (value == null) {
                throw new OutputParseException("expected JSON output, found empty output");
            }
            return value instanceof Map<?, ?> map ? ResultTrees.convert((Map<String, Object>) map)
                    : ResultTrees.convertValue("", value);
        } catch (JsonProcessingException e) {
            throw new OutputParseException("expected JSON output, found " + excerpt(stdout) + " (" + e.getOriginalMessage() + ")", e);
        }
    }

    /**
     * The output to show the learner: its beginning only, saying where it was cut (by here, or by the runtime that
     * keeps about 1 MiB per stream). A learner can make a command print without end; the API must not return that.
     */
    static String excerptOfRaw(ExecResult exec) {
        String raw = exec.stdout().isBlank() ? exec.stderr() : exec.stdout();
        if (raw.length() <= MAX_RAW_CHARS && !exec.truncated()) {
            return raw;
        }
        String shown = raw.substring(0, Math.min(raw.length(), MAX_RAW_CHARS));
        return shown + "\n[tclab: output cut here: it was " + (exec.truncated() ? "more than 1 MiB" : raw.length()
                + " characters") + "; the first " + shown.length() + " are shown]";
    }

    private static String firstLine(ExecResult exec) {
        String text = exec.stderr().isBlank() ? exec.stdout() : exec.stderr();
        List<String> lines = text.strip().lines().toList();
        return lines.isEmpty() ? "exit code " + exec.exitCode() : lines.get(0);
    }

    private static String excerpt(String text) {
        String flat = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "empty output" : "'" + (flat.length() > 80 ? flat.substring(0, 80) + "…" : flat) + "'";
    }

    private static MeasurementOutcome ok(Map<String, Object> values, String raw) {
        return new MeasurementOutcome(values, raw, null);
    }

    private static MeasurementOutcome failed(String raw, String error) {
        return new MeasurementOutcome(Map.of(), raw, error);
    }
}
