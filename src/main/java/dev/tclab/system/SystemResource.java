package dev.tclab.system;

import dev.tclab.cpu.CpuUse;
import dev.tclab.cpu.HostCpu;
import dev.tclab.lab.LabService;
import dev.tclab.runtime.EngineStatus;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** What the server can do right now: engine, lab image, kernel features, capacity. */
@Path("/api/system")
@Produces(MediaType.APPLICATION_JSON)
public class SystemResource {

    /** The body of GET /api/system. {@code problem} is null when labs can start. */
    public record SystemView(
            EngineStatus docker,
            String labImage,
            boolean labImagePresent,
            Map<String, Boolean> kernel,
            String kernelRelease,
            OwnKernel ownKernel,
            CpuView hostCpu,
            int labsRunning,
            int labsMax,
            boolean ready,
            String problem) {}

    /**
     * The kernel of labs with a kernel of their own: its release and how it runs the labs' processes ({@code seccomp},
     * or {@code ptrace}: about four times the host CPU per lab); null until a lesson's lab needed it.
     */
    public record OwnKernel(String release, String mode) {}

    /**
     * The labs' host's CPUs in use over the last seconds, in cores: the labs', the platform's own (this app and the
     * engine's processes), and other work's, which holds measurements back ({@code leftToLabs} is the share of the
     * measurement slots given out); null where the app cannot read them (an engine on another host).
     */
    public record CpuView(int cores, double busy, double labs, double platform, double other, double leftToLabs) {}

    private final SystemStatus status;
    private final LabService labs;
    private final HostCpu hostCpu;

    public SystemResource(SystemStatus status, LabService labs, HostCpu hostCpu) {
        this.status = status;
        this.labs = labs;
        this.hostCpu = hostCpu;
    }

    private static CpuView hostCpu(CpuUse use) {
        return new CpuView(
                use.hostCores(),
                hundredths(use.busyCores()),
                hundredths(use.labCores()),
                hundredths(use.platformCores()),
                hundredths(use.otherCores()),
                hundredths(use.leftToLabs()));
    }

    private static double hundredths(double value) {
        return Math.round(value * 100) / 100.0;
    }

    @GET
    public SystemView get() {
        SystemStatus.Snapshot s = status.snapshot();
        return new SystemView(
                s.engine(),
                s.image(),
                s.imagePresent(),
                s.kernel().features(),
                s.kernel().kernel(),
                status.ownKernel().map(k -> new OwnKernel(k.kernel(), k.mode())).orElse(null),
                hostCpu.latest().map(SystemResource::hostCpu).orElse(null),
                labs.liveCount(),
                labs.maxRunning(),
                s.ready(),
                s.problem());
    }
}
