package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.InternalServerErrorException;
import com.github.dockerjava.api.model.Frame;
import dev.tclab.runtime.AttachedStream;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.ProcessLimit;
import dev.tclab.runtime.StreamListener;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * A long-running process in a lab node (a shell with a TTY, or a statistics sampler) attached over a Docker exec.
 * Closing it ends the attachment and kills the process: without that, a sampler loop would outlive its viewers.
 */
final class DockerProcessStream extends AttachedStream {

    private static final Logger LOG = Logger.getLogger(DockerProcessStream.class);

    private static final Duration ENGINE_LOOKS = Duration.ofSeconds(3);

    /** A process that ends this soon after its start did not get going: on a full node, the limit stopped it. */
    static final Duration ENDED_AT_ONCE = Duration.ofSeconds(5);

    private final DockerClient docker;
    private final String containerId;
    private final String execId;
    private final QuietCallback<Frame> callback;
    private final long started = System.nanoTime();

    DockerProcessStream(
            DockerClient docker,
            String containerId,
            List<String> command,
            boolean tty,
            StreamListener listener,
            Executor background,
            BooleanSupplier atProcessLimit) {
        super(background);
        this.docker = docker;
        this.containerId = containerId;
        // The marker lets the app find the process once, right after the exec starts (below).
        String marker = UUID.randomUUID().toString();
        this.execId = docker.execCreateCmd(containerId)
                .withCmd(command.toArray(String[]::new))
                .withAttachStdin(true)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .withTty(tty)
                .withEnv(List.of("TERM=xterm-256color", "LANG=C.UTF-8", BoundedCommand.STREAM_MARKER + "=" + marker))
                .exec()
                .getId();
        this.callback = new QuietCallback<>() {
            @Override
            public void onNext(Frame frame) {
                listener.onOutput(frame.getPayload());
            }

            @Override
            public void onError(Throwable error) {
                super.onError(error);
                background.execute(() -> finished(listener, whyBroken(error, atProcessLimit)));
            }

            @Override
            public void onComplete() {
                super.onComplete();
                background.execute(() ->
                        finished(listener, whyEnded(Duration.ofNanos(System.nanoTime() - started), atProcessLimit)));
            }
        };
        docker.execStartCmd(execId).withTty(tty).withStdIn(stdin).exec(callback);
        // Found before this constructor returns, so before any input of the learner's reaches the new process.
        findProcess(marker);
    }

    /**
     * Why the stream broke, for the learner: the engine's refusal to start the process (a 500 from the exec's start)
     * in a node at its process limit says that, not runc's words. Asks the engine, so off docker-java's thread.
     */
    static String whyBroken(Throwable error, BooleanSupplier atProcessLimit) {
        if (error instanceof InternalServerErrorException) {
            try {
                if (atProcessLimit.getAsBoolean()) {
                    return ProcessLimit.NO_SHELL_STARTS;
                }
            } catch (RuntimeException e) {
                LOG.debugf("process count not read after an exec failed to start: %s", e.getMessage());
            }
        }
        return "the stream broke: " + error.getMessage();
    }

    /**
     * Why the process ended, for the learner. On a node at its process limit the engine sometimes starts the exec and
     * its process ends at once (the shell could not fork what it starts with): that is the same refusal as a start the
     * engine refuses, so it says the same words (ForkBombIT saw both). Asks the engine, so off docker-java's thread.
     */
    static String whyEnded(Duration ranFor, BooleanSupplier atProcessLimit) {
        if (ranFor.compareTo(ENDED_AT_ONCE) < 0) {
            try {
                if (atProcessLimit.getAsBoolean()) {
                    return ProcessLimit.NO_SHELL_STARTS;
                }
            } catch (RuntimeException e) {
                LOG.debugf("process count not read after a process ended silently: %s", e.getMessage());
            }
        }
        return "the process exited";
    }

    /** Runs off docker-java's callback thread: it asks the engine, and may wait a few seconds for its answer. */
    private void finished(StreamListener listener, String reason) {
        if (!firstReport()) {
            return;
        }
        if (closed()) {
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
    protected ExecResult runBeside(List<String> command, Duration timeout) {
        return DockerExec.run(docker, containerId, command, timeout);
    }

    @Override
    protected void resizeTerminal(int columns, int rows) {
        docker.resizeExecCmd(execId).withSize(rows, columns).exec();
    }

    @Override
    protected void detach() {
        try {
            callback.close();
        } catch (IOException e) {
            LOG.debugf("closing exec %s: %s", execId, e.getMessage());
        }
    }

    @Override
    protected String where() {
        return "exec " + execId + " in " + containerId;
    }
}
