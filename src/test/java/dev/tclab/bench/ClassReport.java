package dev.tclab.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** target/benchmarks/class.md: the class beside the learner alone and the floors, then what each lab costs. */
record ClassReport(
        int learners,
        int keys,
        Instant began,
        String loadBefore,
        String loadAfter,
        ClassRun alone,
        List<ClassRun> classes,
        List<String> failures) {

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Class benchmark: ").append(learners).append(" learners, tbf-basics\n\n");
        md.append("Run ")
                .append(began.truncatedTo(ChronoUnit.MINUTES))
                .append(", ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, load average ")
                .append(loadBefore)
                .append(" before and ")
                .append(loadAfter)
                .append(" after. ")
                .append(keys)
                .append(" keys per learner, 10 a second. Failures: ")
                .append(failures.size())
                .append(".\n\n");
        for (ClassRun together : classes) {
            md.append("## ")
                    .append(learners)
                    .append(" learners, ")
                    .append(together.label())
                    .append("\n\n");
            table(md, together);
            md.append('\n');
            md.append("Verdicts: alone ")
                    .append(verdicts(alone))
                    .append("; class ")
                    .append(verdicts(together))
                    .append(".\n\n");
            md.append("The server's own view (means from /q/metrics over the phase): lab queue wait ")
                    .append(together.serverStart().mean("tclab_lab_queue_wait_seconds"))
                    .append(", lab start ")
                    .append(together.serverStart().mean("tclab_lab_start_seconds"))
                    .append(", measurement-slot wait ")
                    .append(together.serverCheck().mean("tclab_measurement_slot_wait_seconds"))
                    .append(", check ")
                    .append(together.serverCheck().mean("tclab_check_duration_seconds"))
                    .append(".\n\n");
            phases(md, together.label(), together, learners);
            costs(md, together, learners);
        }
        md.append("## One learner alone\n\n");
        phases(md, "alone", alone, 1);
        costs(md, alone, 1);
        if (!failures.isEmpty()) {
            md.append("\n## Failures\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
        }
        return md.toString();
    }

    private void table(StringBuilder md, ClassRun together) {
        md.append("| measurement | alone p50 | class p50 | class p95 | class p99 | class max | floor p50 | floor p95"
                + " | floor max |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        row(
                md,
                together,
                "lab start: waiting for a start worker or slot (ms)",
                perLearner(l -> l.queueWaitMillis),
                List.of());
        row(md, together, "lab start: start until running (ms)", perLearner(l -> l.startMillis), List.of());
        row(
                md,
                together,
                "lab start: Start pressed to running (ms); floor: docker run -d of every lab's containers" + " at once",
                perLearner(l -> l.queueWaitMillis + l.startMillis),
                together.startFloorMillis());
        row(
                md,
                together,
                "keystroke echo (ms); floor: direct exec attach, same pace",
                ClassRun::echoMillis,
                together.echoFloorMillis());
        row(md, together, "statistics frame delay after its sample time (ms)", ClassRun::statsDelayMillis, List.of());
        row(md, together, "Check: queued for a check worker (ms)", perLearner(l -> l.checkQueuedMillis), List.of());
        row(md, together, "Check: waiting for a measurement slot (ms)", perLearner(l -> l.slotWaitMillis), List.of());
        row(md, together, "Check: measuring, waits excepted (ms)", perLearner(l -> l.measureMillis), List.of());
        row(
                md,
                together,
                "Check: pressed to verdict (ms); floor: the same iperf3 by docker exec in every lab at once",
                perLearner(l -> l.checkQueuedMillis + l.slotWaitMillis + l.measureMillis),
                together.checkFloorMillis());
        row(
                md,
                together,
                "Check: measured rate (Mbit/s); floor: the docker exec iperf3",
                perLearner(l -> l.measuredMbps),
                together.checkFloorMbps());
        row(md, together, "app CPU (% of one core, 1 s samples)", ClassRun::appCpuPercent, List.of());
        row(md, together, "app resident memory (MiB, 1 s samples)", ClassRun::appRssMib, List.of());
    }

    private void row(
            StringBuilder md,
            ClassRun together,
            String name,
            Function<ClassRun, List<Double>> samples,
            List<Double> floor) {
        List<Double> one = samples.apply(alone);
        List<Double> all = samples.apply(together);
        md.append("| ")
                .append(name)
                .append(" | ")
                .append(one.isEmpty() ? "n/a" : fmt(Stats.of(one).p50()));
        if (all.isEmpty()) {
            md.append(" | n/a | n/a | n/a | n/a");
        } else {
            Stats s = Stats.of(all);
            md.append(" | ")
                    .append(fmt(s.p50()))
                    .append(" | ")
                    .append(fmt(s.p95()))
                    .append(" | ")
                    .append(fmt(s.p99()))
                    .append(" | ")
                    .append(fmt(s.max()));
        }
        if (floor.isEmpty()) {
            md.append(" | | | |\n");
        } else {
            Stats f = Stats.of(floor);
            md.append(" | ")
                    .append(fmt(f.p50()))
                    .append(" | ")
                    .append(fmt(f.p95()))
                    .append(" | ")
                    .append(fmt(f.max()))
                    .append(" |\n");
        }
    }

    private static Function<ClassRun, List<Double>> perLearner(java.util.function.ToDoubleFunction<Learner> value) {
        return run -> run.learners().stream()
                .filter(l -> !l.failed())
                .mapToDouble(value)
                .filter(v -> !Double.isNaN(v))
                .boxed()
                .toList();
    }

    private static String verdicts(ClassRun run) {
        java.util.Map<String, Long> counts = new java.util.TreeMap<>();
        run.learners()
                .forEach(l -> counts.merge(l.failed() ? "learner failed" : String.valueOf(l.verdict), 1L, Long::sum));
        return counts.toString();
    }

    private static void phases(StringBuilder md, String name, ClassRun run, int labs) {
        md.append("| ")
                .append(name)
                .append(": phase | seconds | app (cores) | lab containers (cores) | containers"
                        + " per lab (% of a core) | their shims (cores) | dockerd + containerd, all clients (cores) | whole"
                        + " machine, every process (cores) | app RSS (MiB) | shims PSS (MiB) |\n");
        md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (ClassRun.Phase p : run.phases()) {
            md.append(String.format(
                    "| %s | %.1f | %.3f | %.3f | %.2f | %.3f | %.3f | %.3f | %.0f | %.0f |%n",
                    p.name(),
                    p.seconds(),
                    p.appCores(),
                    p.labsCores(),
                    100 * p.labsCores() / labs,
                    p.shimsCores(),
                    p.daemonsCores(),
                    p.machineCores(),
                    p.appRssBytes() / 1048576.0,
                    p.shimsRssBytes() / 1048576.0));
        }
        md.append(String.format(
                "%nLab containers' memory (cgroups): %.0f MiB running (%.1f MiB per lab), %.0f MiB "
                        + "watched after shaping (%.1f MiB per lab).%n%n",
                run.labMemoryBytes() / 1048576.0,
                run.labMemoryBytes() / 1048576.0 / labs,
                run.labMemoryWatchedBytes() / 1048576.0,
                run.labMemoryWatchedBytes() / 1048576.0 / labs));
    }

    /** The per-lab costs the capacity guide in docs/BENCHMARKS.md is derived from, with the arithmetic. */
    private static void costs(StringBuilder md, ClassRun run, int labs) {
        ClassRun.Phase idle = phase(run, "labs running");
        ClassRun.Phase watched = phase(run, "labs watched");
        ClassRun.Phase check = phase(run, "all press Check");
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                "- a running lab, nobody watching: containers %.3f / %d = %.2f %% of a core",
                idle.labsCores(), labs, 100 * idle.labsCores() / labs));
        lines.add(String.format(
                "- a watched lab, above running: containers (%.3f - %.3f) / %d = %.2f %%, app "
                        + "(%.3f - %.3f) / %d = %.2f %% of a core",
                watched.labsCores(),
                idle.labsCores(),
                labs,
                100 * (watched.labsCores() - idle.labsCores()) / labs,
                watched.appCores(),
                idle.appCores(),
                labs,
                100 * (watched.appCores() - idle.appCores()) / labs));
        lines.add(String.format(
                "- a Check, above watching: containers (%.3f - %.3f) x %.1f s / %d = %.2f core-seconds, "
                        + "app (%.3f - %.3f) x %.1f s / %d = %.2f core-seconds",
                check.labsCores(),
                watched.labsCores(),
                check.seconds(),
                labs,
                (check.labsCores() - watched.labsCores()) * check.seconds() / labs,
                check.appCores(),
                watched.appCores(),
                check.seconds(),
                labs,
                (check.appCores() - watched.appCores()) * check.seconds() / labs));
        lines.add(String.format(
                "- their shims (outside the containers' cgroups): running %.3f / %d = %.2f %%, watched"
                        + " %.3f / %d = %.2f %%, pressing Check %.3f / %d = %.2f %% of a core",
                idle.shimsCores(),
                labs,
                100 * idle.shimsCores() / labs,
                watched.shimsCores(),
                labs,
                100 * watched.shimsCores() / labs,
                check.shimsCores(),
                labs,
                100 * check.shimsCores() / labs));
        lines.add(String.format(
                "- memory per lab: containers %.1f MiB running, %.1f MiB watched and shaped (cgroups);"
                        + " shims (PSS) %.0f / %d = %.1f MiB",
                run.labMemoryBytes() / 1048576.0 / labs,
                run.labMemoryWatchedBytes() / 1048576.0 / labs,
                watched.shimsRssBytes() / 1048576.0,
                labs,
                watched.shimsRssBytes() / 1048576.0 / labs));
        md.append("Costs per lab (for the capacity guide; a difference below the phases' noise can come out"
                + " negative):\n\n");
        lines.forEach(l -> md.append(l).append('\n'));
        md.append('\n');
    }

    private static ClassRun.Phase phase(ClassRun run, String prefix) {
        return run.phases().stream()
                .filter(p -> p.name().startsWith(prefix))
                .findFirst()
                .orElseThrow();
    }

    private static String fmt(double v) {
        return v >= 100 ? String.format("%.0f", v) : String.format("%.2f", v);
    }
}
