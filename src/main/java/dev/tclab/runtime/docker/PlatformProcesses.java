package dev.tclab.runtime.docker;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CPU time of the platform's own processes on this host, from {@code /proc}: this app, the Docker engine's
 * daemons (dockerd and its containerd, found by their pid files) and the containerd shims that hold each container
 * (children of the host's init). Their work serves the labs (an exec, a stream, a check), yet it runs outside the
 * labs' control groups; what the host runs beyond them and the labs is somebody else's.
 * <p>
 * A learner cannot pass for one of them: a process in a lab is never a child of the host's init, nor named in a pid
 * file.
 */
final class PlatformProcesses {

    /** /proc counts in USER_HZ, which is 100 on every Linux architecture the JDK runs on. */
    static final long NANOS_PER_TICK = 10_000_000L;

    private static final List<String> DAEMON_PID_FILES =
            List.of("/var/run/docker.pid", "/run/docker/containerd/containerd.pid", "/run/containerd/containerd.pid");
    private static final String SHIM = "containerd-shim";

    private final Path proc;

    PlatformProcesses(Path proc) {
        this.proc = proc;
    }

    /**
     * CPU time each of the platform's processes used so far, in nanoseconds, by pid: per process, because one that
     * ends (the shim of a lab that stopped) takes its time with it.
     */
    Map<Long, Long> usedNanos() {
        Map<Long, Long> used = new HashMap<>();
        selfPid().ifPresent(pid -> count(pid, used));
        for (String pidFile : DAEMON_PID_FILES) {
            daemonPid(Path.of(pidFile)).ifPresent(pid -> count(pid, used));
        }
        try (DirectoryStream<Path> pids =
                Files.newDirectoryStream(proc, p -> isPid(p.getFileName().toString()))) {
            for (Path pid : pids) {
                String id = pid.getFileName().toString();
                Optional<Stat> stat = stat(id);
                if (stat.isPresent()
                        && stat.get().ppid() == 1
                        && stat.get().comm().startsWith(SHIM)) {
                    used.put(Long.parseLong(id), stat.get().ticks() * NANOS_PER_TICK);
                }
            }
        } catch (IOException e) {
            // no shims counted: the labs' engine may not be containerd's
        }
        return used;
    }

    private void count(String pid, Map<Long, Long> used) {
        stat(pid).ifPresent(stat -> used.put(Long.parseLong(pid), stat.ticks() * NANOS_PER_TICK));
    }

    /** This app's pid, as the host's /proc names it. */
    private Optional<String> selfPid() {
        try {
            return Optional.of(Files.readSymbolicLink(proc.resolve("self")).toString());
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private static boolean isPid(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }

    private static Optional<String> daemonPid(Path pidFile) {
        try {
            String pid = Files.readString(pidFile).trim();
            return isPid(pid) ? Optional.of(pid) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * A process's name, parent and CPU ticks: its user and system time and that of the children it reaped (the runc
     * that starts each exec, gone before any reading sees it).
     */
    record Stat(String comm, int ppid, long ticks) {}

    /** Reads {@code /proc/<pid>/stat}; its name is in parentheses and may hold spaces, so fields count from the last. */
    Optional<Stat> stat(String pid) {
        try {
            String line = Files.readString(proc.resolve(pid).resolve("stat"));
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String[] rest = line.substring(close + 2).split(" ");
            // rest[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17
            long ticks = 0;
            for (int field = 14; field <= 17; field++) {
                ticks += Long.parseLong(rest[field - 3]);
            }
            return Optional.of(new Stat(line.substring(open + 1, close), Integer.parseInt(rest[1]), ticks));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // it ended meanwhile
        }
    }
}
