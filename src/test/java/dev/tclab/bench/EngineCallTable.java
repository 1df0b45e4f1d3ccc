package dev.tclab.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The app's timings of its lab starts' engine calls by kind ({@code tclab_engine_call_seconds{call=...}} at
 * /q/metrics): the difference of two scrapes says how many calls of each kind a burst of lab starts made and how
 * long each took, as the app waited for it (in a burst, mostly the engine's queue).
 */
record EngineCallTable(Map<String, double[]> countAndSum) {

    private static final Pattern LINE = Pattern.compile(
            "^tclab_engine_call_seconds_(count|sum)\\{[^}]*call=\"([a-z.]+)\"[^}]*\\} ([0-9.eE+-]+)$",
            Pattern.MULTILINE);

    static EngineCallTable of(String prometheusText) {
        Map<String, double[]> values = new TreeMap<>();
        Matcher line = LINE.matcher(prometheusText);
        while (line.find()) {
            double[] countSum = values.computeIfAbsent(line.group(2), k -> new double[2]);
            countSum[line.group(1).equals("count") ? 0 : 1] += Double.parseDouble(line.group(3));
        }
        return new EngineCallTable(values);
    }

    EngineCallTable minus(EngineCallTable earlier) {
        Map<String, double[]> delta = new TreeMap<>();
        countAndSum.forEach((call, now) -> {
            double[] then = earlier.countAndSum.getOrDefault(call, new double[2]);
            if (now[0] > then[0]) {
                delta.put(call, new double[] {now[0] - then[0], now[1] - then[1]});
            }
        });
        return new EngineCallTable(delta);
    }

    /** A markdown table: per kind, the calls per lab, their mean and their summed time. */
    String markdown(int labs) {
        StringBuilder md = new StringBuilder(
                "| engine call (the app's timer) | calls | per lab | mean (ms) | summed over the burst (s) |\n"
                        + "| --- | --- | --- | --- | --- |\n");
        double[] total = new double[2];
        countAndSum.forEach((call, countSum) -> {
            md.append(String.format(
                    "| %s | %.0f | %.1f | %.0f | %.1f |%n",
                    call, countSum[0], countSum[0] / labs, 1000 * countSum[1] / countSum[0], countSum[1]));
            total[0] += countSum[0];
            total[1] += countSum[1];
        });
        md.append(String.format(
                "| all | %.0f | %.1f | %.0f | %.1f |%n",
                total[0], total[0] / labs, total[0] == 0 ? 0 : 1000 * total[1] / total[0], total[1]));
        return md.toString();
    }
}
