package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Runs a command in a container and captures its output, with a timeout that also kills the command. Both are
 * enforced by the app, not only by the container: a learner is root in a lab node and may replace {@code timeout}
 * by a script that never ends, or make a command print without end.
 */
final class DockerExec {

    private static final Logger LOG = Logger.getLogger(DockerExec.class);

    /** Output kept per stream (see {@link BoundedCommand}). */
    static final int MAX_CAPTURE_BYTES = BoundedCommand.MAX_CAPTURE_BYTES;

    private DockerExec() {}

    static ExecResult run(DockerClient docker, String containerId, List<String> command, Duration timeout) {
        // timeout(1) kills the command inside the container; the app's own deadline below holds when it does not.
        long seconds = BoundedCommand.seconds(timeout);
        List<String> wrapped = BoundedCommand.withTimeout(command, seconds);
        String marker = UUID.randomUUID().toString();
        String execId = docker.execCreateCmd(containerId)
                .withCmd(wrapped.toArray(String[]::new))
                .withEnv(List.of(BoundedCommand.MARKER + "=" + marker))
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        Collector collector = new Collector();
        try (Collector running = docker.execStartCmd(execId).exec(collector)) {
            if (!running.awaitCompletion(BoundedCommand.deadlineMillis(seconds), TimeUnit.MILLISECONDS)) {
                killMarked(docker, containerId, marker);
                return collector.result(-1, true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killMarked(docker, containerId, marker);
            return collector.result(-1, true);
        } catch (IOException e) {
            // Closing a finished callback cannot fail in a way that matters; the output is already collected.
        }
        Long exit = docker.inspectExecCmd(execId).exec().getExitCodeLong();
        int code = exit == null ? -1 : exit.intValue();
        boolean timedOut = code == BoundedCommand.TIMEOUT_EXIT;
        return collector.result(timedOut ? -1 : code, timedOut);
    }

    /**
     * Kills every process that carries the exec's marker (the command and its children), with SIGKILL: closing the
     * attach stream does not end an exec on Docker 20.10, and a command may ignore SIGTERM.
     */
    private static void killMarked(DockerClient docker, String containerId, String marker) {
        String script = BoundedCommand.killMarked(marker);
        try {
            String killId = docker.execCreateCmd(containerId)
                    .withCmd("sh", "-c", script)
                    .withAttachStdout(true)
                    .withAttachStderr(true)
                    .exec()
                    .getId();
            try (Collector kill = docker.execStartCmd(killId).exec(new Collector())) {
                if (!kill.awaitCompletion(5, TimeUnit.SECONDS)) {
                    LOG.warnf("could not kill a timed-out command in %s within 5 s", containerId);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // The container is gone, or the engine with it: so is the command.
            LOG.debugf("killing a timed-out command in %s failed: %s", containerId, e.getMessage());
        }
    }

    /** Gathers stdout and stderr frames, keeping the first {@link #MAX_CAPTURE_BYTES} of each. */
    private static final class Collector extends QuietCallback<Frame> {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();
        private boolean truncated;

        @Override
        public void onNext(Frame frame) {
            synchronized (this) {
                ByteArrayOutputStream target = frame.getStreamType() == StreamType.STDERR ? err : out;
                byte[] payload = frame.getPayload();
                int room = MAX_CAPTURE_BYTES - target.size();
                if (payload.length > room) {
                    truncated = true;
                }
                target.write(payload, 0, Math.max(0, Math.min(room, payload.length)));
            }
        }

        synchronized ExecResult result(int exitCode, boolean timedOut) {
            return new ExecResult(
                    exitCode,
                    out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8),
                    timedOut,
                    truncated);
        }
    }
}
