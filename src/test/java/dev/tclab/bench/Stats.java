package dev.tclab.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Order statistics of a benchmark's samples, in milliseconds. */
public record Stats(int n, double p50, double p95, double p99, double min, double max) {

    public static Stats of(List<Double> samples) {
        List<Double> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        return new Stats(
                sorted.size(),
                percentile(sorted, 50),
                percentile(sorted, 95),
                percentile(sorted, 99),
                sorted.get(0),
                sorted.get(sorted.size() - 1));
    }

    /** Nearest-rank percentile. */
    private static double percentile(List<Double> sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    public String row(String name) {
        return String.format("| %s | %d | %.0f | %.0f | %.0f | %.0f |", name, n, p50, p95, min, max);
    }
}
