package dev.tclab.runtime.docker;

import com.github.dockerjava.api.model.Container;
import dev.tclab.runtime.CpuTimes;
import dev.tclab.runtime.LabelKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Reads the CPU time of the host and of lab containers where the kernel keeps it: {@code /proc/stat} and each
 * container's control group. Both are only this host's, so this works when the Docker engine runs on the app's
 * host (the engine's default unix socket); elsewhere no container's group is found and the reading is empty.
 * <p>
 * The group's place depends on the cgroup version and Docker's cgroup driver; the first layout that holds a
 * container is kept.
 */
final class CgroupCpu {

    /** Where a container's CPU time is, given its full id, and in what unit. */
    enum Layout {
        /** cgroup v1, Docker's cgroupfs driver. */
        V1_CGROUPFS("cpuacct/docker/%s/cpuacct.usage"),
        /** cgroup v1, systemd driver. */
        V1_SYSTEMD("cpuacct/system.slice/docker-%s.scope/cpuacct.usage"),
        /** cgroup v2, systemd driver. */
        V2_SYSTEMD("system.slice/docker-%s.scope/cpu.stat"),
        /** cgroup v2, cgroupfs driver. */
        V2_CGROUPFS("docker/%s/cpu.stat");

        private final String pattern;

        Layout(String pattern) {
            this.pattern = pattern;
        }

        Path of(Path root, String containerId) {
            return root.resolve(pattern.formatted(containerId));
        }

        /** Nanoseconds of CPU in the file's text: v1's cpuacct.usage is nanoseconds, v2's cpu.stat says usage_usec. */
        long nanos(String text) {
            if (this == V1_CGROUPFS || this == V1_SYSTEMD) {
                return Long.parseLong(text.trim());
            }
            return text.lines()
                    .filter(l -> l.startsWith("usage_usec "))
                    .mapToLong(l ->
                            Long.parseLong(l.substring("usage_usec ".length()).trim()) * 1000)
                    .findFirst()
                    .orElseThrow(() -> new NumberFormatException("no usage_usec"));
        }
    }

    private static final Logger LOG = Logger.getLogger(CgroupCpu.class);

    private final Path procStat;
    private final PlatformProcesses platform;
    private final Path cgroupRoot;
    private final double limitCores;
    private volatile Layout layout;
    private volatile boolean toldUnreadable;

    CgroupCpu(Path proc, Path cgroupRoot, double limitCores) {
        this.procStat = proc.resolve("stat");
        this.platform = new PlatformProcesses(proc);
        this.cgroupRoot = cgroupRoot;
        this.limitCores = limitCores;
    }

    static CgroupCpu ofThisHost(double limitCores) {
        return new CgroupCpu(Path.of("/proc"), Path.of("/sys/fs/cgroup"), limitCores);
    }

    /**
     * The host's CPU time and that of {@code running} (this instance's containers, as the engine listed them); empty
     * when the host's counters or a lab container's group cannot be read.
     */
    Optional<CpuTimes> read(List<Container> running) {
        long now = System.nanoTime();
        Optional<HostTimes> host = host();
        if (host.isEmpty()) {
            return Optional.empty();
        }
        List<CpuTimes.Container> labs = new ArrayList<>();
        for (Container c : running) {
            Map<String, String> labels = c.getLabels();
            String labId = labels.get(LabelKeys.LAB);
            if (labId == null) {
                continue; // the instance's services (the agent image's keeper), not a lab's
            }
            Optional<Long> used = usedNanos(c.getId());
            if (used.isEmpty()) {
                if (layout == null) {
                    unreadable("no control group of container " + c.getId() + " under " + cgroupRoot);
                    return Optional.empty();
                }
                continue; // it ended since the engine listed it
            }
            String role = labels.get(LabelKeys.ROLE);
            boolean learners = LabelKeys.ROLE_NODE.equals(role) || LabelKeys.ROLE_UML.equals(role);
            String node = LabelKeys.ROLE_UML.equals(role) ? null : labels.get(LabelKeys.NODE);
            labs.add(new CpuTimes.Container(labId, node, learners, limitCores, used.get(), false));
        }
        return Optional.of(
                new CpuTimes(now, host.get().cores(), host.get().busyNanos(), platform.usedNanos(), List.copyOf(labs)));
    }

    private record HostTimes(int cores, long busyNanos) {}

    /** The first line of /proc/stat sums every CPU: busy is all but idle and iowait; guest time is already in user. */
    private Optional<HostTimes> host() {
        try {
            List<String> lines = Files.readAllLines(procStat);
            String[] total = lines.get(0).trim().split("\\s+");
            long busyTicks = 0;
            for (int i = 1; i < Math.min(total.length, 9); i++) { // user .. steal
                if (i != 4 && i != 5) { // idle, iowait
                    busyTicks += Long.parseLong(total[i]);
                }
            }
            int cores =
                    (int) lines.stream().filter(l -> l.matches("cpu\\d+ .*")).count();
            return Optional.of(new HostTimes(Math.max(1, cores), busyTicks * PlatformProcesses.NANOS_PER_TICK));
        } catch (IOException | RuntimeException e) {
            unreadable(procStat + " cannot be read (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    private Optional<Long> usedNanos(String containerId) {
        Layout known = layout;
        if (known != null) {
            return read(known, containerId);
        }
        for (Layout candidate : Layout.values()) {
            Optional<Long> used = read(candidate, containerId);
            if (used.isPresent()) {
                layout = candidate;
                LOG.debugf("lab containers' CPU time read from %s", candidate.of(cgroupRoot, "<id>"));
                return used;
            }
        }
        return Optional.empty();
    }

    private Optional<Long> read(Layout where, String containerId) {
        try {
            return Optional.of(where.nanos(Files.readString(where.of(cgroupRoot, containerId))));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private void unreadable(String why) {
        if (!toldUnreadable) {
            toldUnreadable = true;
            LOG.infof(
                    "The labs' CPU use cannot be read here: %s. Checks are admitted by measurement slots alone, and"
                            + " no lab is told that it holds its CPU at its limit.",
                    why);
        }
    }
}
