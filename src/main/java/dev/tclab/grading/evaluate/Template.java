package dev.tclab.grading.evaluate;

/**
 * Fills an author's message (docs/checks.md, "Assertions"): {@code {value}} and {@code {unit}} (the measured value as
 * the learner sees it), {@code {expected}}, {@code {path}}, and with {@code ratio_to} {@code {baseline}} (in
 * {@code {unit}}) and {@code {ratio}}.
 */
final class Template {

    /** What the placeholders stand for; {@code baseline} and {@code ratio} are empty without {@code ratio_to}. */
    record Fields(String value, String unit, String expected, String path, String baseline, String ratio) {}

    private Template() {}

    /** Whether {@code template} shows a measured figure ({@code {value}}, {@code {unit}}, {@code {baseline}}, {@code {ratio}}). */
    static boolean namesMeasured(String template) {
        return template.contains("{value}")
                || template.contains("{unit}")
                || template.contains("{baseline}")
                || template.contains("{ratio}");
    }

    static String fill(String template, Fields fields) {
        return template.replace("{value}", fields.value())
                .replace("{unit}", fields.unit())
                .replace("{expected}", fields.expected())
                .replace("{path}", fields.path())
                .replace("{baseline}", fields.baseline())
                .replace("{ratio}", fields.ratio());
    }
}
