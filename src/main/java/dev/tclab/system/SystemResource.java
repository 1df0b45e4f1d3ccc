package dev.tclab.system;

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
            int labsRunning,
            int labsMax,
            boolean ready,
            String problem) {}

    /**
     * The kernel of labs with a kernel of their own: its release and how it runs the labs' processes ({@code seccomp},
     * or {@code ptrace}: about four times the host CPU per lab); null until a lesson's lab needed it.
     */
    public record OwnKernel(String release, String mode) {}

    private final SystemStatus status;
    private final LabService labs;

    public SystemResource(SystemStatus status, LabService labs) {
        this.status = status;
        this.labs = labs;
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
                labs.liveCount(),
                labs.maxRunning(),
                s.ready(),
                s.problem());
    }
}
