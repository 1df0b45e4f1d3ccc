package dev.tclab.runtime.agent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a UML kernel's console printed before its agent was ready, kept so that a kernel that does not come up can say
 * why: its panic, or what the platform's own scripts printed ({@code tclab-...}). Bounded: a few recent lines of at
 * most {@link #MAX_LINE} characters each, whatever the kernel prints.
 */
final class BootConsole {

    static final int MAX_LINE = 200;
    /**
     * What UML (6.15 and later, with {@code seccomp=auto}) prints before its kernel starts when it will run the lab's
     * processes under seccomp filters; otherwise it traces them (ptrace mode: 6.1 never prints it).
     */
    static final String SECCOMP_OK = "Checking that seccomp filters can be installed...OK";

    private static final int LINES = 40;

    private final Deque<String> lines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private boolean panicked;
    private boolean seccomp;

    /** Keeps what the console printed; returns whether the kernel has panicked (it will not come up). */
    synchronized boolean feed(byte[] bytes) {
        for (char c : new String(bytes, StandardCharsets.ISO_8859_1).toCharArray()) {
            if (c == '\n' || c == '\r') {
                endLine();
            } else if (partial.length() < MAX_LINE && c >= ' ' && c < 0x7f) {
                partial.append(c);
            }
        }
        return panicked;
    }

    /**
     * The line that says most about why the kernel stopped: the last panic or line of the platform's scripts, else the
     * last line printed; empty when it printed nothing.
     */
    synchronized String lastWords() {
        endLine();
        String last = "";
        for (String line : lines) {
            if (isPanic(line) || line.startsWith("tclab-")) {
                last = line;
            }
        }
        return last.isEmpty() && !lines.isEmpty() ? lines.peekLast() : last;
    }

    /** How the kernel runs its processes, from what it printed before it started: seccomp or ptrace. */
    synchronized String userspaceMode() {
        endLine();
        return seccomp ? "seccomp" : "ptrace";
    }

    private static boolean isPanic(String line) {
        return line.startsWith("Kernel panic - ");
    }

    private void endLine() {
        String line = partial.toString().strip();
        partial.setLength(0);
        if (line.isEmpty()) {
            return;
        }
        panicked |= isPanic(line);
        seccomp |= line.equals(SECCOMP_OK);
        if (lines.size() == LINES) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }
}
