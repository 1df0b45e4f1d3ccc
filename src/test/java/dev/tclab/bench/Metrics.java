package dev.tclab.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The app's own histograms from /q/metrics (Prometheus text): per metric, the sum and count over all its series, so
 * the difference of two scrapes gives the mean of what happened between them, as the server measured it.
 */
record Metrics(Map<String, double[]> sumAndCount) {

    private static final Pattern LINE = Pattern.compile(
            "^(?<key>tclab_[a-z_]+)_(?<kind>sum|count)(?:\\{[^}]*\\})? (?<value>[0-9.eE+-]+)$", Pattern.MULTILINE);

    static Metrics of(String prometheusText) {
        return read(LINE.matcher(prometheusText));
    }

    /** One histogram's series by the value of one of their labels (e.g. per kind of call), each as a metric here. */
    static Metrics byLabel(String prometheusText, String metric, String label) {
        return read(Pattern.compile(
                        "^" + metric + "_(?<kind>sum|count)\\{[^}]*" + label
                                + "=\"(?<key>[^\"]*)\"[^}]*\\} (?<value>[0-9.eE+-]+)$",
                        Pattern.MULTILINE)
                .matcher(prometheusText));
    }

    private static Metrics read(Matcher line) {
        Map<String, double[]> values = new TreeMap<>();
        while (line.find()) {
            double[] sumCount = values.computeIfAbsent(line.group("key"), k -> new double[2]);
            sumCount[line.group("kind").equals("sum") ? 0 : 1] += Double.parseDouble(line.group("value"));
        }
        return new Metrics(values);
    }

    Metrics minus(Metrics earlier) {
        Map<String, double[]> delta = new TreeMap<>();
        sumAndCount.forEach((name, now) -> {
            double[] then = earlier.sumAndCount.getOrDefault(name, new double[2]);
            delta.put(name, new double[] {now[0] - then[0], now[1] - then[1]});
        });
        return new Metrics(delta);
    }

    /** The mean of a histogram (in its unit, seconds for timers) and how many it counted, e.g. "0.42 s (30)". */
    String mean(String name) {
        double[] sumCount = sumAndCount.get(name);
        if (sumCount == null || sumCount[1] == 0) {
            return "none";
        }
        return String.format("%.2f s (%d)", sumCount[0] / sumCount[1], (long) sumCount[1]);
    }
}
