package dev.tclab.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What lab containers cost, read on the engine host (a benchmark using it runs on that host): their CPU time and
 * memory from their cgroups (cgroup v1 or v2, with the cgroupfs driver Debian's docker.io uses), and those of the
 * engine's per-container shim processes, which sit outside the containers' cgroups but exist only for them.
 */
final class LabContainers {

    private LabContainers() {}

    /** Nanoseconds of CPU used by the containers carrying these labels (e.g. {@code tclab.lab=<id>}). */
    static long cpuNanos(DockerClient docker, Map<String, String> labels) throws IOException {
        long total = 0;
        for (Container c : docker.listContainersCmd().withLabelFilter(labels).exec()) {
            Path v1 = Path.of("/sys/fs/cgroup/cpuacct/docker", c.getId(), "cpuacct.usage");
            Path v2 = Path.of("/sys/fs/cgroup/docker", c.getId(), "cpu.stat");
            if (Files.exists(v1)) {
                total += Long.parseLong(Files.readString(v1).trim());
            } else if (Files.exists(v2)) {
                String usec = Files.readAllLines(v2).stream()
                        .filter(l -> l.startsWith("usage_usec "))
                        .findFirst()
                        .orElseThrow()
                        .substring(11)
                        .trim();
                total += Long.parseLong(usec) * 1000;
            } // else the container has just gone: it uses nothing more
        }
        return total;
    }

    /** Memory used now by those containers (cgroup v1 memory.usage_in_bytes or v2 memory.current), in bytes. */
    static long memoryBytes(DockerClient docker, Map<String, String> labels) throws IOException {
        long total = 0;
        for (Container c : docker.listContainersCmd().withLabelFilter(labels).exec()) {
            Path v1 = Path.of("/sys/fs/cgroup/memory/docker", c.getId(), "memory.usage_in_bytes");
            Path v2 = Path.of("/sys/fs/cgroup/docker", c.getId(), "memory.current");
            Path path = Files.exists(v1) ? v1 : v2;
            if (Files.exists(path)) {
                total += Long.parseLong(Files.readString(path).trim());
            }
        }
        return total;
    }

    /**
     * The engine's shim processes of those containers (one containerd-shim per container, the parent of its init):
     * their CPU nanoseconds so far and memory now (proportional set size, see
     * {@link ProcessUsage#pssBytes}). A shim that has gone counts nothing.
     */
    static long[] shims(DockerClient docker, Map<String, String> labels) {
        java.util.Set<Long> shims = new java.util.HashSet<>();
        for (Container c : docker.listContainersCmd().withLabelFilter(labels).exec()) {
            try {
                Long pid =
                        docker.inspectContainerCmd(c.getId()).exec().getState().getPidLong();
                if (pid != null && pid > 0) {
                    shims.add(ProcessHandle.of(pid)
                            .flatMap(ProcessHandle::parent)
                            .map(ProcessHandle::pid)
                            .orElse(0L));
                }
            } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
                // removed meanwhile
            }
        }
        long cpu = 0;
        long rss = 0;
        for (long shim : shims) {
            try {
                ProcessUsage usage = new ProcessUsage(shim);
                cpu += usage.cpuNanos();
                rss += usage.pssBytes();
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        return new long[] {cpu, rss};
    }
}
