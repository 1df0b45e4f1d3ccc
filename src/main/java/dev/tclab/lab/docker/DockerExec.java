package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.lab.ExecResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command in a container and captures its output, with a timeout that also kills the command. */
final class DockerExec {

    /** Exit code of coreutils' timeout(1) when it stopped the command. */
    private static final int TIMEOUT_EXIT = 124;

    private DockerExec() {
    }

    static ExecResult run(DockerClient docker, String containerId, List<String> command, Duration timeout) {
        // timeout(1) kills the command inside the container; our own wait below only guards against a stuck engine.
        long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
        List<String> wrapped = new ArrayList<>(List.of("timeout", "-k", "2", Long.toString(seconds)));
        wrapped.addAll(command);
        String execId = docker.execCreateCmd(containerId).withCmd(wrapped.toArray(String[]::new))
                .withAttachStdout(true).withAttachStderr(true).exec().getId();
        Collector collector = new Collector();
        try (Collector running = docker.execStartCmd(execId).exec(collector)) {
            boolean finished = running.awaitCompletion(seconds + 10, TimeUnit.SECONDS);
            if (!finished) {
                return new ExecResult(-1, collector.stdout(), collector.stderr(), true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ExecResult(-1, collector.stdout(), collector.stderr(), true);
        } catch (IOException e) {
            // Closing a finished callback cannot fail in a way that matters; the output is already collected.
        }
        Long exit = docker.inspectExecCmd(execId).exec().getExitCodeLong();
        int code = exit == null ? -1 : exit.intValue();
        boolean timedOut = code == TIMEOUT_EXIT;
        return new ExecResult(timedOut ? -1 : code, collector.stdout(), collector.stderr(), timedOut);
    }

    /** Gathers stdout and stderr frames. */
    private static final class Collector extends ResultCallback.Adapter<Frame> {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();

        @Override
        public void onNext(Frame frame) {
            synchronized (this) {
                (frame.getStreamType() == StreamType.STDERR ? err : out).writeBytes(frame.getPayload());
            }
        }

        synchronized String stdout() {
            return out.toString(StandardCharsets.UTF_8);
        }

        synchronized String stderr() {
            return err.toString(StandardCharsets.UTF_8);
        }
    }
}
