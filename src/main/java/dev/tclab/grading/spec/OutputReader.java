package dev.tclab.grading.spec;

import dev.tclab.runtime.ExecResult;
import java.util.List;
import java.util.Map;

/**
 * What every measurement's output reading shares: a run that timed out, the raw output kept for the learner, and
 * the outcomes. Each {@link Measurement} reads its own output ({@link Measurement#read}).
 */
public final class OutputReader {

    /** Raw output kept per measurement for the learner to read (the API returns it): enough for any error message. */
    public static final int MAX_RAW_CHARS = 4096;

    private OutputReader() {}

    public static MeasurementOutcome read(Measurement m, ExecResult exec) {
        if (exec.timedOut()) {
            return failed(
                    excerptOfRaw(exec),
                    m.kind() + " did not finish within " + m.timeout().toSeconds() + " s");
        }
        return m.read(exec);
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
        return shown + "\n[tclab: output cut here: it was "
                + (exec.truncated() ? "more than 1 MiB" : raw.length() + " characters") + "; the first "
                + shown.length() + " are shown]";
    }

    static String firstLine(ExecResult exec) {
        String text = exec.stderr().isBlank() ? exec.stdout() : exec.stderr();
        List<String> lines = text.strip().lines().toList();
        return lines.isEmpty() ? "exit code " + exec.exitCode() : lines.get(0);
    }

    static String excerpt(String text) {
        String flat = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "empty output" : "'" + (flat.length() > 80 ? flat.substring(0, 80) + "…" : flat) + "'";
    }

    static MeasurementOutcome ok(Map<String, Object> values, String raw) {
        return new MeasurementOutcome(values, raw, null);
    }

    static MeasurementOutcome failed(String raw, String error) {
        return new MeasurementOutcome(Map.of(), raw, error);
    }

    static MeasurementOutcome unreadable(String raw, Exception e) {
        return failed(raw, "the output could not be read: " + e.getMessage());
    }

    /** A tc command that exited non-zero refused (no such device, ...): its first line says why. */
    static MeasurementOutcome tcRefused(ExecResult exec) {
        return failed(excerptOfRaw(exec), "tc failed: " + firstLine(exec));
    }
}
