package dev.tclab.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A class pressing Start at once on a full warm pool: each learner's Start to running and to the prompt in the client's
 * terminal, beside the floors measured right after, all at once: for running, one GET of the lab by each learner's own
 * client (the call the page polls with); for the prompt, a login shell by a direct exec attach with a TTY into the
 * running client container. Also the server's count of Starts the pool answered, how many pooled labs were starting
 * or ready when the last learner's lab ran (the refill under way during the Starts), and the load average.
 */
record PoolRun(
        List<Learner> learners,
        List<Double> httpFloorMillis,
        List<Double> promptFloorMillis,
        List<Double> serverStartMillis,
        List<Double> serverReadMillis,
        double fillSeconds,
        long handouts,
        long misses,
        long pooledAfter,
        String loadBefore,
        String loadAfter) {

    List<String> failures() {
        List<String> failures = new ArrayList<>(
                learners.stream().filter(Learner::failed).map(Learner::failure).toList());
        if (misses > 0 || handouts != learners.size()) {
            failures.add("from the pool: " + handouts + " Starts answered by the pool and " + misses
                    + " missed it, for " + learners.size() + " learners");
        }
        return failures;
    }

    String markdown() {
        List<Learner> ok = learners.stream().filter(l -> !l.failed()).toList();
        StringBuilder md = new StringBuilder();
        md.append("## ").append(learners.size()).append(" learners, from the warm pool\n\n");
        md.append(String.format(
                "The app restarted with `tclab.pool.\"tbf-basics\"=%d` and room for the refill"
                        + " (`tclab.lab.max-running=%d`); the pool was full %.1f s after it was ready. Then every learner, each"
                        + " with an HTTP client of its own, pressed Start at the same moment (POST, then GET every 500 ms, as the page, until"
                        + " `running`). The server answered %d Starts from the pool (%d missed it); when the last lab ran, %d"
                        + " pooled labs were starting or ready (the refill). Load average %s before the Starts, %s after.%n%n",
                learners.size(),
                2 * learners.size() + 1,
                fillSeconds,
                handouts,
                misses,
                pooledAfter,
                loadBefore,
                loadAfter));
        md.append("| measurement | p50 | p95 | p99 | max | floor p50 | floor p95 | floor max |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        row(
                md,
                "Start pressed to running (ms); floor: one GET /api/labs/{id} by every learner at once, right after",
                ok.stream().map(l -> l.queueWaitMillis + l.startMillis).toList(),
                httpFloorMillis);
        row(
                md,
                "of it: the server's own time for the POST, from reading the request to writing the answer (its"
                        + " access log); floor: the same for the GETs",
                serverStartMillis,
                serverReadMillis);
        row(
                md,
                "Start pressed to the prompt in the client's terminal (ms); floor: a login shell by a direct exec"
                        + " attach with a TTY in every running lab at once, to its prompt",
                ok.stream().map(l -> l.promptMillis).toList(),
                promptFloorMillis);
        return md.append('\n').toString();
    }

    private static void row(StringBuilder md, String name, List<Double> samples, List<Double> floor) {
        md.append("| ").append(name);
        if (samples.isEmpty()) {
            md.append(" | n/a | n/a | n/a | n/a");
        } else {
            Stats s = Stats.of(samples);
            md.append(String.format(" | %.0f | %.0f | %.0f | %.0f", s.p50(), s.p95(), s.p99(), s.max()));
        }
        if (floor.isEmpty()) {
            md.append(" | | | |\n");
        } else {
            Stats f = Stats.of(floor);
            md.append(String.format(" | %.0f | %.0f | %.0f |%n", f.p50(), f.p95(), f.max()));
        }
    }
}
