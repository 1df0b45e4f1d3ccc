package dev.tclab.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * CPU time used so far by lab containers, read from the engine host's cgroups (a benchmark using it runs on that
 * host): cgroup v1 cpuacct or cgroup v2, with the cgroupfs driver Debian's docker.io uses.
 */
final class LabContainersCpu {

    private LabContainersCpu() {
    }

    /** Nanoseconds of CPU used by the containers carrying these labels (e.g. {@code tclab.lab=<id>}). */
    static long nanos(DockerClient docker, Map<String, String> labels) throws IOException {
        long total = 0;
        for (Container c : docker.listContainersCmd().withLabelFilter(labels).exec()) {
            Path v1 = Path.of("/sys/fs/cgroup/cpuacct/docker", c.getId(), "cpuacct.usage");
            Path v2 = Path.of("/sys/fs/cgroup/docker", c.getId(), "cpu.stat");
            if (Files.exists(v1)) {
                total += Long.parseLong(Files.readString(v1).trim());
            } else if (Files.exists(v2)) {
                String usec = Files.readAllLines(v2).stream().filter(l -> l.startsWith("usage_usec "))
                        .findFirst().orElseThrow().substring(11).trim();
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
}
