package dev.tclab.grading;

/** Fills an author's message: {@code {value}}, {@code {unit}}, {@code {expected}}, {@code {path}}, {@code {baseline}}. */
final class Template {

    private Template() {
    }

    static String fill(String template, String value, Measure measure, String expected, String path, Measure baseline) {
        return template.replace("{value}", value)
                .replace("{unit}", measure == null ? "" : measure.unit().symbol())
                .replace("{expected}", expected)
                .replace("{path}", path)
                .replace("{baseline}", baseline == null ? "" : baseline.toString());
    }
}
