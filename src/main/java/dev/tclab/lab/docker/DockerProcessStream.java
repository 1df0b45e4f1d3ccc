package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.model.Frame;
import dev.tclab.lab.runtime.BoundedCommand;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.ProcessStream;
import dev.tclab.lab.runtime.QueueInputStream;
import dev.tclab.lab.runtime.StreamListener;
import dev.tclab.lab.runtime.StreamProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * A long-running process in a lab node (a shell with a TTY, or a statistics sampler) attached over a Docker exec.
 * Closing it ends the attachment and kills the process: without that, a sampler loop would outlive its viewers.
 */
final class DockerProcessStream implements ProcessStream {

    private static final Logger LOG = Logger.getLogger(DockerProcessStream.class);

    private final DockerClient docker;
    private final String containerId;
    /** The stream's process, found as it started; empty when it ended at once (or was not found). */
    private final Optional<StreamProcess> process;
    private final Executor background;
    /** Input queued for a process that does not read it; beyond this, writes are refused (see ProcessStream). */
    static final long MAX_QUEUED_INPUT_BYTES = 1 << 20;
    private static final Duration ENGINE_LOOKS = Duration.ofSeconds(3);

    private final QueueInputStream stdin = new QueueInputStream(MAX_QUEUED_INPUT_BYTES);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private final String execId;
    private final QuietCallback<Frame> callback;

    DockerProcessStream(DockerClient docker, String containerId, List<String> command, boolean tty,
                        StreamListener listener, Executor background) {
        this.docker = docker;
        this.containerId = containerId;
        this.background = background;
        // The marker lets the app find the process once, right after the exec starts (below); from then on the app
        // keeps its pid and start time itself, so nothing a learner writes in the node decides what close() signals.
        String marker = UUID.randomUUID().toString();
        this.execId = docker.execCreateCmd(containerId).withCmd(command.toArray(String[]::new))
                .withAttachStdin(true).withAttachStdout(true).withAttachStderr(true).withTty(tty)
                .withEnv(List.of("TERM=xterm-256color", "LANG=C.UTF-8", BoundedCommand.STREAM_MARKER + "=" + marker))
                .exec().getId();
        this.callback = new QuietCallback<>() {
            @Override
            public void onNext(Frame frame) {
                listener.onOutput(frame.getPayload());
            }

            @Override
            public void onError(Throwable error) {
                super.onError(error);
                background.execute(() -> finished(listener, "the stream broke: " + error.getMessage()));
            }

            @Override
            public void onComplete() {
                super.onComplete();
                background.execute(() -> finished(listener, "the process exited"));
            }
        };
        docker.execStartCmd(execId).withTty(tty).withStdIn(stdin).exec(callback);
        // Found before this constructor returns, so before any input of the learner's reaches the new process.
        this.process = find(marker);
    }

    private Optional<StreamProcess> find(String marker) {
        try {
            ExecResult found = DockerExec.run(docker, containerId,
                    List.of("sh", "-c", BoundedCommand.findStarted(marker)), Duration.ofSeconds(5));
            Optional<StreamProcess> process = BoundedCommand.started(found.stdout());
            if (process.isEmpty()) {
                LOG.debugf("exec %s in %s: no single process of the stream (it ended at once?): %s", execId,
                        containerId, found.stdout().strip());
            }
            return process;
        } catch (RuntimeException e) {
            LOG.warnf("exec %s in %s: its process was not found, so closing it will not end it: %s", execId,
                    containerId, e.getMessage());
            return Optional.empty();
        }
    }

    /** Runs off docker-java's callback thread: it asks the engine, and may wait a few seconds for its answer. */
    private void finished(StreamListener listener, String reason) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        if (closed.get()) {
            listener.onClosed("closed");
        } else if (engineLost()) {
            listener.onEngineLost("the Docker engine went away");
        } else {
            listener.onClosed(reason);
        }
    }

    /**
     * Whether the stream ended because the engine did, rather than the process: an engine that stops ends every
     * attached stream (as a clean end or an error alike), so only asking it tells the two apart. An engine that does
     * not answer is lost; one that answers and no longer knows the exec, or says it ended, saw the process end. It may
     * mark an exec as ended a while after its output closed (seconds on a busy host), and a stopping engine may still
     * answer for a moment, hence the looks over a few seconds. An exec still running when they are over counts as
     * ended: the page then offers a new shell on the next key, which is right in either case.
     */
    private boolean engineLost() {
        long deadline = System.nanoTime() + ENGINE_LOOKS.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (!Boolean.TRUE.equals(docker.inspectExecCmd(execId).exec().isRunning())) {
                    return false;
                }
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (DockerException e) {
                return false; // it answered: the exec is gone with its process
            } catch (RuntimeException e) {
                LOG.debugf("exec %s: the engine did not answer after its stream ended: %s", execId, e.toString());
                return true; // no answer at all
            }
        }
        return false;
    }

    @Override
    public boolean write(byte[] input) {
        return stdin.offer(input);
    }

    @Override
    public void resize(int columns, int rows) {
        try {
            docker.resizeExecCmd(execId).withSize(rows, columns).exec();
        } catch (RuntimeException e) {
            LOG.debugf("resize of exec %s failed: %s", execId, e.getMessage());
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stdin.close();
        try {
            callback.close();
        } catch (IOException e) {
            LOG.debugf("closing exec %s: %s", execId, e.getMessage());
        }
        background.execute(this::killProcess);
    }

    /** Hangs up the process group (a TTY shell and its jobs), or the process alone when it leads no group. */
    private void killProcess() {
        if (process.isEmpty()) {
            return;
        }
        String script = BoundedCommand.hangUp(process.get());
        try {
            DockerExec.run(docker, containerId, List.of("sh", "-c", script), Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            // The container is gone (lab stopped): so is the process.
            LOG.debugf("could not kill stream process in %s: %s", containerId, e.getMessage());
        }
    }
}
