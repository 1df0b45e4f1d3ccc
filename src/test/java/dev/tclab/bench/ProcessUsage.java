package dev.tclab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and resident memory of another process, read from /proc (Linux): the app's own costs, apart from the
 * benchmark's client JVM.
 */
final class ProcessUsage {

    /** Clock ticks per second of /proc/PID/stat's times; 100 on every Linux this runs on (getconf CLK_TCK). */
    static final long TICKS_PER_SECOND = 100;

    private final long pid;

    ProcessUsage(long pid) {
        this.pid = pid;
    }

    /** CPU time (user and system) used so far, in nanoseconds. */
    long cpuNanos() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // Fields after the command name, which is in parentheses and may hold spaces: state is field 3, utime 14.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** Resident set size now, in bytes. */
    long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS in /proc/" + pid + "/status");
    }

    /** Open file handles now (the entries of /proc/PID/fd): sockets, pipes, files. */
    int fileHandles() throws IOException {
        try (var entries = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return (int) entries.count();
        }
    }

    /**
     * Proportional set size now, in bytes: resident memory with each page shared by k processes counted 1/k (so the
     * shims of many containers, which share their program's pages, add up to what they really take). Needs the
     * right to read /proc/PID/smaps_rollup (root, or the same user); else the resident set size.
     */
    long pssBytes() throws IOException {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "smaps_rollup"))) {
                if (line.startsWith("Pss:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (java.nio.file.AccessDeniedException e) {
            // not ours to read
        }
        return rssBytes();
    }
}
