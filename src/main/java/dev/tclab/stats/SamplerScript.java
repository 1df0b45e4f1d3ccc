package dev.tclab.stats;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The shell loop one sampler runs in a lab node: every interval, for every interface (read live, so ifb devices
 * a learner adds are included), the qdiscs as JSON, the classes and the filters (egress and ingress) as text,
 * between marker lines. One long-running process per node replaces one engine exec per sample (~55 ms each).
 */
final class SamplerScript {

    /** Marker lines start with this; tc never prints it. */
    static final String MARK = "@@tclab ";

    private SamplerScript() {
    }

    static List<String> command(Duration interval) {
        String seconds = String.format(Locale.ROOT, "%.3f", interval.toMillis() / 1000.0);
        String script = String.join("\n",
                "while :; do",
                "  printf '" + MARK + "sample %s\\n' \"$(date +%s%N)\"",
                "  for d in $(ip -o link show | sed -n 's/^[0-9]*: \\([^:@ ]*\\).*/\\1/p'); do",
                "    [ \"$d\" = lo ] && continue",
                "    printf '" + MARK + "dev %s\\n' \"$d\"",
                "    printf '" + MARK + "qdisc\\n'; tc -s -j qdisc show dev \"$d\" 2>&1",
                "    printf '\\n" + MARK + "class\\n'; tc -s class show dev \"$d\" 2>&1",
                "    printf '" + MARK + "filter\\n'; tc filter show dev \"$d\" 2>&1",
                "    printf '" + MARK + "ingress\\n'; tc filter show dev \"$d\" ingress 2>/dev/null",
                "  done",
                "  printf '" + MARK + "end\\n'",
                "  sleep " + seconds,
                "done");
        return List.of("sh", "-c", script);
    }
}
