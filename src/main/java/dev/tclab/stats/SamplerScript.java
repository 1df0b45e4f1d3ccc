package dev.tclab.stats;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The shell loop one sampler runs in a lab node. Every interval it prints, between marker lines: the counters of
 * all interfaces (ip's JSON), then for each sampled interface (read live, so ifb devices a learner adds are
 * included) its qdiscs as JSON and its classes and filters (of the root qdisc, of each class and inner qdisc, and
 * of the ingress hook) as text. One long-running process per node replaces one engine exec per sample (~55 ms
 * each).
 */
final class SamplerScript {

    /** Marker lines start with this; tc never prints it. */
    static final String MARK = "@@tclab ";

    private SamplerScript() {
    }

    /**
     * @param interfaces the interfaces to sample, as names or shell patterns ({@code ifb*}) that lab.yml validation
     *                   has limited to characters safe in a {@code case} pattern; empty means all but lo
     */
    static List<String> command(Duration interval, List<String> interfaces) {
        String seconds = String.format(Locale.ROOT, "%.3f", interval.toMillis() / 1000.0);
        String wanted = interfaces.isEmpty() ? "*" : String.join("|", interfaces);
        String script = String.join("\n",
                "while :; do",
                "  printf '" + MARK + "sample %s\\n' \"$(date +%s%N)\"",
                "  printf '" + MARK + "links\\n'; ip -s -j link show 2>&1; echo",
                "  for d in $(ip -o link show | sed -n 's/^[0-9]*: \\([^:@ ]*\\).*/\\1/p'); do",
                "    [ \"$d\" = lo ] && continue",
                "    case \"$d\" in " + wanted + ") ;; *) continue ;; esac",
                "    printf '" + MARK + "dev %s\\n' \"$d\"",
                "    q=$(tc -s -j qdisc show dev \"$d\" 2>&1)",
                "    printf '" + MARK + "qdisc\\n%s\\n' \"$q\"",
                // Most interfaces, most of the time, have nothing but noqueue: no classes or filters to ask for.
                "    case \"$q\" in *'},{'*) ;; '[{\"kind\":\"noqueue\"'*) continue ;; esac",
                "    c=$(tc -s class show dev \"$d\" 2>&1)",
                "    printf '" + MARK + "class\\n'; [ -n \"$c\" ] && printf '%s\\n' \"$c\"",
                "    printf '" + MARK + "filter\\n'; tc filter show dev \"$d\" 2>&1",
                // Filters attached to a class or an inner qdisc are listed only when asked for by parent.
                "    for p in $(printf '%s\\n' \"$c\" | sed -n 's/^class [^ ]* \\([0-9a-f]*:[0-9a-f]*\\) .*/\\1/p')"
                        + " $(tc qdisc show dev \"$d\" | sed -n -e '/^qdisc [^ ]* \\(0\\|ffff\\): /d'"
                        + " -e 's/^qdisc [^ ]* \\([0-9a-f]*:\\) parent .*/\\1/p'); do",
                "      printf '" + MARK + "filter %s\\n' \"$p\"; tc filter show dev \"$d\" parent \"$p\" 2>/dev/null",
                "    done",
                "    printf '" + MARK + "ingress\\n'; tc filter show dev \"$d\" ingress 2>/dev/null",
                "  done",
                "  printf '" + MARK + "end\\n'",
                "  sleep " + seconds,
                "done");
        return List.of("sh", "-c", script);
    }
}
