package dev.tclab.runtime.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Container;
import dev.tclab.runtime.CpuTimes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading CPU time from a host's /proc and its control groups, in each layout Docker uses, on a tree laid out as a
 * host lays it out (the real host's tree is read by HostCpuIT).
 */
class CgroupCpuTest {

    private static final String PROC_STAT = """
            cpu  1000 20 300 5000 100 5 10 0 0 0
            cpu0 500 10 150 2500 50 3 5 0 0 0
            cpu1 500 10 150 2500 50 2 5 0 0 0
            intr 123
            """;

    @TempDir
    Path root;

    private Path proc;
    private Path cgroup;

    private void host() throws IOException {
        proc = Files.createDirectories(root.resolve("proc"));
        cgroup = Files.createDirectories(root.resolve("cgroup"));
        Files.writeString(proc.resolve("stat"), PROC_STAT);
    }

    private static Container container(String id, Map<String, String> labels) throws IOException {
        return new ObjectMapper().convertValue(Map.of("Id", id, "Labels", labels), Container.class);
    }

    private static Map<String, String> node(String lab, String node) {
        return Map.of("tclab.lab", lab, "tclab.role", "node", "tclab.node", node);
    }

    private void write(String relative, String text) throws IOException {
        Path file = cgroup.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void shouldReadTheHostsBusyTimeWithoutIdleAndIoWait() throws IOException {
        host();
        CpuTimes times = new CgroupCpu(proc, cgroup, 1.0).read(List.of()).orElseThrow();

        assertEquals(2, times.hostCores());
        assertEquals((1000 + 20 + 300 + 5 + 10) * PlatformProcesses.NANOS_PER_TICK, times.hostBusyNanos());
        assertTrue(times.containers().isEmpty());
    }

    @Test
    void shouldReadCgroupV1ContainersOfDockersCgroupfsDriver() throws IOException {
        host();
        write("cpuacct/docker/aaa/cpuacct.usage", "1500000000\n");
        write("cpuacct/docker/bbb/cpuacct.usage", "250\n");
        CpuTimes times = new CgroupCpu(proc, cgroup, 1.0)
                .read(List.of(
                        container("aaa", node("lab1", "client")),
                        container("bbb", Map.of("tclab.lab", "lab1", "tclab.role", "sidecar", "tclab.node", "client"))))
                .orElseThrow();

        CpuTimes.Container client = times.containers().get(0);
        assertEquals(new CpuTimes.Container("lab1", "client", true, 1.0, 1_500_000_000L, false), client);
        CpuTimes.Container sidecar = times.containers().get(1);
        assertFalse(sidecar.learners(), "a sidecar runs the platform's measurements, not the learner's processes");
        assertEquals(250, sidecar.usedNanos());
    }

    @Test
    void shouldReadCgroupV2ContainersOfTheSystemdDriverAndALabsOwnKernel() throws IOException {
        host();
        write("system.slice/docker-ccc.scope/cpu.stat", "usage_usec 2000\nuser_usec 1500\nsystem_usec 500\n");
        CpuTimes times = new CgroupCpu(proc, cgroup, 2.0)
                .read(List.of(container("ccc", Map.of("tclab.lab", "lab2", "tclab.role", "uml", "tclab.nodes", "a,b"))))
                .orElseThrow();

        CpuTimes.Container kernel = times.containers().get(0);
        assertNull(kernel.node(), "one container holds every node");
        assertTrue(kernel.learners());
        assertEquals(2.0, kernel.limitCores());
        assertEquals(2_000_000L, kernel.usedNanos());
    }

    @Test
    void shouldReadNothingWhenNoLabContainersGroupIsHere() throws IOException {
        host();
        // An engine on another host: its containers' groups are not on this one.
        assertTrue(new CgroupCpu(proc, cgroup, 1.0)
                .read(List.of(container("ddd", node("lab3", "client"))))
                .isEmpty());
    }

    @Test
    void shouldSkipTheInstancesServicesAndContainersThatEndedMeanwhile() throws IOException {
        host();
        write("docker/eee/cpu.stat", "usage_usec 7\n");
        CpuTimes times = new CgroupCpu(proc, cgroup, 1.0)
                .read(List.of(
                        container("svc", Map.of("tclab.role", "agent-keeper")),
                        container("eee", node("lab4", "server")),
                        container("gone", node("lab4", "client"))))
                .orElseThrow();

        assertEquals(
                List.of("server"),
                times.containers().stream().map(CpuTimes.Container::node).toList());
    }

    @Test
    void shouldCountTheShimsOfTheHostsInitNotALearnersProcessOfTheSameName() throws IOException {
        host();
        Files.createDirectories(proc.resolve("40"));
        Files.createDirectories(proc.resolve("41"));
        Files.createDirectories(proc.resolve("42"));
        // pid (comm) state ppid ... utime(14) stime(15) cutime(16) cstime(17)
        Files.writeString(proc.resolve("40/stat"), "40 (containerd-shim) S 1 40 40 0 -1 0 0 0 0 0 30 20 5 5 20 0\n");
        Files.writeString(proc.resolve("41/stat"), "41 (containerd-shim) R 977 41 41 0 -1 0 0 0 0 0 900 0 0 0 20 0\n");
        Files.writeString(proc.resolve("42/stat"), "42 (a (weird) name) S 1 42 42 0 -1 0 0 0 0 0 70 0 0 0 20 0\n");
        PlatformProcesses platform = new PlatformProcesses(proc);

        assertEquals("a (weird) name", platform.stat("42").orElseThrow().comm());
        assertEquals(Map.of(40L, (30 + 20 + 5 + 5) * PlatformProcesses.NANOS_PER_TICK), platform.usedNanos());
    }
}
