package dev.tclab.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The app's own histograms from /q/metrics (Prometheus text): per metric, the sum and count over all its series, so
 * the difference of two scrapes gives the mean of what happened between them, as the server measured it.
 */
record Metrics(Map<String, double[]> sumAndCount) {

    private static final Pattern LINE =
            Pattern.compile("^(tclab_[a-z_]+)_(sum|count)(?:\\{[^}]*\\})? ([0-9.eE+-]+)$", Pattern.MULTILINE);

    static Metrics of(String prometheusText) {
        Map<String, double[]> values = new HashMap<>();
        Matcher line = LINE.matcher(prometheusText);
        while (line.find()) {
            double[] sumCount = values.computeIfAbsent(line.group(1), k -> new double[2]);
            sumCount[line.group(2).equals("sum") ? 0 : 1] += Double.parseDouble(line.group(3));
        }
        return new Metrics(values);
    }

    Metrics minus(Metrics earlier) {
        Map<String, double[]> delta = new HashMap<>();
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
