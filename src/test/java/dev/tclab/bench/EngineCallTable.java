package dev.tclab.bench;

/**
 * The app's timings of its lab starts' engine calls by kind ({@code tclab_engine_call_seconds{call=...}} at
 * /q/metrics): the difference of two scrapes says how many calls of each kind a burst of lab starts made and how
 * long each took, as the app waited for it (in a burst, mostly the engine's queue).
 */
final class EngineCallTable {

    private EngineCallTable() {}

    static Metrics of(String prometheusText) {
        return Metrics.byLabel(prometheusText, "tclab_engine_call_seconds", "call");
    }

    /** A markdown table of the calls between two scrapes: per kind, the calls per lab, their mean and summed time. */
    static String markdown(Metrics calls, int labs) {
        StringBuilder md = new StringBuilder(
                "| engine call (the app's timer) | calls | per lab | mean (ms) | summed over the burst (s) |\n"
                        + "| --- | --- | --- | --- | --- |\n");
        double[] total = new double[2];
        calls.sumAndCount().forEach((call, sumCount) -> {
            if (sumCount[1] > 0) {
                md.append(String.format(
                        "| %s | %.0f | %.1f | %.0f | %.1f |%n",
                        call, sumCount[1], sumCount[1] / labs, 1000 * sumCount[0] / sumCount[1], sumCount[0]));
                total[0] += sumCount[0];
                total[1] += sumCount[1];
            }
        });
        md.append(String.format(
                "| all | %.0f | %.1f | %.0f | %.1f |%n",
                total[1], total[1] / labs, total[1] == 0 ? 0 : 1000 * total[0] / total[1], total[0]));
        return md.toString();
    }
}
