package dev.tclab.stats;

import java.util.List;

/**
 * The bash loop one sampler runs in a lab node. The app paces it: each line it writes is one tick, naming the
 * interfaces that need their classes and filters listed (those with a qdisc other than noqueue last time). Per tick
 * the loop prints, between marker lines, every interface's counters (read from /proc/net/dev with shell builtins), every
 * qdisc (from one long-running {@code tc -batch}), then the classes and filters (of the root qdisc, of each class
 * and inner qdisc, and of the ingress hook) of the named interfaces. Starting a process costs a lab container
 * ~4-9 ms of CPU, so an idle tick starts none: no {@code ip}, {@code tc}, {@code date} or {@code sleep}.
 */
final class SamplerScript {

    /** Marker lines start with this; tc never prints it. */
    static final String MARK = "@@tclab ";

    private SamplerScript() {}

    static List<String> command() {
        String script = String.join(
                "\n",
                // One JSON line per command; it ends with its stdin, so it never outlives the loop.
                "coproc TC { exec tc -s -j -batch - 2>/dev/null; }",
                "while read -r detail; do",
                "  printf '" + MARK + "sample %s\\n' \"${EPOCHREALTIME/./}\"",
                "  printf '" + MARK + "links\\n'",
                // /proc/net/dev, not /sys/class/net: a process sees the first of its own network namespace, the
                // second of whoever mounted /sys (in a lab with a kernel of its own the sampler runs in the node's
                // network but the kernel's root mounts, whose sysfs lists only lo). Past its two header lines:
                // "name: rx bytes packets errs drop fifo frame compressed multicast, tx bytes packets errs drop ...".
                "  { read -r _; read -r _",
                "    while IFS=' :' read -r n rb rp _ rd _ _ _ _ tb tp _ td _; do",
                "      printf '%s %s %s %s %s %s %s\\n' \"$n\" \"$rb\" \"$rp\" \"$rd\" \"$tb\" \"$tp\" \"$td\"",
                "    done; } < /proc/net/dev 2>/dev/null",
                // Interface names come from the app, which took them from tc; no glob may expand them.
                "  set -f",
                "  echo 'qdisc show' >&\"${TC[1]}\"; IFS= read -r q <&\"${TC[0]}\" || exit 1",
                "  printf '" + MARK + "qdiscs\\n%s\\n' \"$q\"",
                "  for d in $detail; do",
                "    printf '" + MARK + "dev %s\\n' \"$d\"",
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
                "done");
        return List.of("bash", "-c", script);
    }
}
