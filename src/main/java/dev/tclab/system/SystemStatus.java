package dev.tclab.system;

import dev.tclab.config.TclabConfig;
import dev.tclab.lab.LabService;
import dev.tclab.runtime.EngineStatus;
import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabEngine;
import dev.tclab.scheduling.Job;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.http.HttpServerStart;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Watches the container engine: whether it answers, whether the lab image exists, and what the host kernel
 * supports. Re-checks every few seconds, so the app notices when the engine goes away and recovers by itself
 * when it returns (probing the kernel and reaping orphaned containers again).
 */
@ApplicationScoped
public class SystemStatus {

    private static final Logger LOG = Logger.getLogger(SystemStatus.class);
    static final String BUILD_COMMAND = "lab-image/build.sh";

    private final LabEngine runtime;
    private final LabService labs;
    private final String image;
    private volatile Snapshot current;

    /** What the app knows about its engine now. */
    public record Snapshot(
            EngineStatus engine, String image, boolean imagePresent, String imageHint, KernelCapabilities kernel) {

        /** True when labs can be started. */
        public boolean ready() {
            return engine.reachable() && imagePresent;
        }

        /** One sentence on what is wrong, or null when all is well. */
        public String problem() {
            if (!engine.reachable()) {
                return "The Docker engine at " + engine.endpoint() + " does not answer: " + engine.error()
                        + ". Labs cannot start until it is back; tclab reconnects by itself.";
            }
            if (!imagePresent) {
                return imageHint;
            }
            return null;
        }
    }

    public SystemStatus(LabEngine runtime, LabService labs, TclabConfig config) {
        this.runtime = runtime;
        this.labs = labs;
        this.image = config.lab().image();
        this.current = new Snapshot(
                EngineStatus.down("(not checked yet)", "not checked yet"),
                image,
                false,
                missingImageHint(image),
                KernelCapabilities.unknown());
    }

    /** The first check finishes before the app serves: at most the engine's connect timeout. */
    void onStart(@Observes StartupEvent event) {
        refresh();
    }

    /**
     * The kernel of labs with a kernel of their own (User-Mode Linux) and how it runs their processes, once a lesson's
     * lab needed it; empty before.
     */
    public Optional<KernelCapabilities> ownKernel() {
        return runtime.ownKernelIfProbed();
    }

    /**
     * Reaps this instance's orphans once the app listens, not before: a second copy started by mistake fails on its
     * busy port without touching the labs of the copy that serves. A self-test serves nothing and never reaps.
     * Quarkus fires this event asynchronously; with the engine down, the reap waits for the engine to come back.
     */
    void onServing(@ObservesAsync HttpServerStart event) {
        labs.reapOrphans();
    }

    public Snapshot snapshot() {
        return current;
    }

    @Job
    @Scheduled(every = "${tclab.docker.check-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void refresh() {
        Snapshot before = current;
        EngineStatus engine = runtime.engine();
        if (!engine.reachable()) {
            if (before.engine().reachable() || before.engine().endpoint().startsWith("(")) {
                LOG.errorf("Docker engine unreachable at %s: %s", engine.endpoint(), engine.error());
            }
            current = new Snapshot(engine, image, before.imagePresent(), before.imageHint(), before.kernel());
            return;
        }
        try {
            boolean present = runtime.imagePresent(image);
            if (!present && (before.imagePresent() || !before.engine().reachable())) {
                LOG.errorf("%s", missingImageHint(image));
            }
            KernelCapabilities kernel = before.kernel();
            if (!before.engine().reachable() || (present && !kernel.probed())) {
                boolean cameBack = !before.engine().reachable() && !firstCheck(before);
                if (cameBack) {
                    LOG.infof("Docker engine %s is reachable again", engine.endpoint());
                }
                kernel = present ? runtime.probeKernel() : kernel;
                if (cameBack) {
                    labs.reapOrphans();
                }
            }
            current = new Snapshot(engine, image, present, missingImageHint(image), kernel);
        } catch (EngineUnavailableException e) {
            current = new Snapshot(
                    EngineStatus.down(engine.endpoint(), e.getMessage()),
                    image,
                    before.imagePresent(),
                    before.imageHint(),
                    before.kernel());
        }
    }

    private static boolean firstCheck(Snapshot before) {
        return before.engine().endpoint().startsWith("(");
    }

    static String missingImageHint(String image) {
        return "The lab image " + image + " is missing on the Docker engine. Build it with `" + BUILD_COMMAND
                + (image.equals("tclab/lab-node:1") ? "" : " " + image)
                + "` (it builds offline when no registry is reachable).";
    }
}
