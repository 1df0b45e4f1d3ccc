package dev.tclab.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A class pressing Start at once on a full warm pool: each learner's Start to running and to the prompt in the client's
 * terminal, beside the floor measured right after on the same labs, all at once (a login shell by a direct exec
 * attach with a TTY into the running client container, to its prompt), and the server's count of Starts the pool
 * answered.
 */
record PoolRun(List<Learner> learners, List<Double> promptFloorMillis, double fillSeconds, long handouts, long misses) {

    List<String> failures() {
        List<String> failures = new ArrayList<>(learners.stream().filter(Learner::failed).map(Learner::failure).toList());
        if (misses > 0 || handouts != learners.size()) {
            failures.add("from the pool: " + handouts + " Starts answered by the pool and " + misses + " missed it, for "
                    + learners.size() + " learners");
        }
        return failures;
    }

    String markdown() {
        List<Learner> ok = learners.stream().filter(l -> !l.failed()).toList();
        StringBuilder md = new StringBuilder();
        md.append("## ").append(learners.size()).append(" learners, from the warm pool\n\n");
        md.append(String.format("The app restarted with `tclab.pool.\"tbf-basics\"=%d`; the pool was full %.1f s after"
                + " it was ready. Then every learner pressed Start at the same moment. The server answered %d Starts"
                + " from the pool (%d missed it).%n%n", learners.size(), fillSeconds, handouts, misses));
        md.append("| measurement | p50 | p95 | p99 | max | floor p50 | floor p95 | floor max |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        row(md, "Start pressed to running (ms)", ok.stream().map(l -> l.queueWaitMillis + l.startMillis).toList(),
                List.of());
        row(md, "Start pressed to the prompt in the client's terminal (ms); floor: a login shell by a direct exec"
                + " attach with a TTY in every running lab at once, to its prompt", ok.stream()
                .map(l -> l.promptMillis).toList(), promptFloorMillis);
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
