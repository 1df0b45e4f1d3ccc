package dev.tclab.lab.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.lab.BoundedCommand;
import dev.tclab.lab.ExecResult;
import dev.tclab.lab.QueueInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Runs commands in a measurement sidecar through the sidecar's main process ({@code sidecar-agent.pl}), attached
 * over its standard input and output, instead of one Docker exec each. An exec costs the engine 50-80 ms of CPU
 * (runc starting a process in the container): a class of 30 pressing Check at once made 90 of them, and they, not
 * the measurements, were what the Checks waited for. A fork in the agent costs about a millisecond.
 *
 * <p>The bounds are {@link DockerExec}'s: the command runs under timeout(1) (the sidecar's own, which the learner
 * cannot replace), the first {@link BoundedCommand#MAX_CAPTURE_BYTES} of each stream are kept, and past the app's
 * deadline the agent kills the command's processes. Once the attachment breaks (the engine or the container went
 * away) its commands throw {@link Gone}: a new one attaches, or the caller falls back to an exec.
 */
final class SidecarAgent implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SidecarAgent.class);
    /** The agent's program, run as the sidecar's command: {@code perl -e SCRIPT}. */
    static final String SCRIPT = script();
    private static final Duration KILL_WAIT = Duration.ofSeconds(5);

    private final String container;
    private final QueueInputStream stdin = new QueueInputStream(1 << 20);
    private final Map<String, CompletableFuture<ExecResult>> waiting = new ConcurrentHashMap<>();
    private final AgentAnswers answers = new AgentAnswers(this::answered, this::end);
    private final ResultCallback.Adapter<Frame> callback;
    /** Why the agent can no longer run commands, or null while it can. */
    private volatile String gone;

    /** The sidecar's command: the agent. */
    static List<String> command() {
        return List.of("perl", "-e", SCRIPT);
    }

    SidecarAgent(DockerClient docker, String container) {
        this.container = container;
        this.callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                if (frame.getStreamType() == StreamType.STDERR) {
                    LOG.debugf("agent in %s: %s", container, new String(frame.getPayload(), StandardCharsets.UTF_8));
                } else {
                    answers.feed(frame.getPayload());
                }
            }

            @Override
            public void onError(Throwable error) {
                super.onError(error);
                end("its stream broke: " + error.getMessage());
            }

            @Override
            public void onComplete() {
                super.onComplete();
                end("its stream ended");
            }
        };
        docker.attachContainerCmd(container).withStdIn(stdin).withStdOut(true).withStdErr(true)
                .withFollowStream(true).withLogs(false).exec(callback);
    }

    /**
     * Runs {@code command} as {@link DockerExec#run} does. Throws {@link Gone} when the agent cannot take it, or went
     * away before it answered (the command may then have run).
     */
    ExecResult run(List<String> command, Duration timeout) throws Gone {
        long seconds = BoundedCommand.seconds(timeout);
        String id = UUID.randomUUID().toString();
        CompletableFuture<ExecResult> answer = new CompletableFuture<>();
        waiting.put(id, answer);
        try {
            if (gone != null || !send("R " + id + " " + hex(BoundedCommand.withTimeout(command, seconds)))) {
                throw new Gone(gone != null ? gone : "its input is full");
            }
            try {
                return answer.get(BoundedCommand.deadlineMillis(seconds), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                return killed(id, answer);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                send("K " + id);
                return new ExecResult(-1, "", "", true);
            } catch (ExecutionException e) {
                throw new Gone(e.getCause().getMessage());
            }
        } finally {
            waiting.remove(id);
        }
    }

    /** Past the deadline: the command's process group is killed; what it printed until then is its output. */
    private ExecResult killed(String id, CompletableFuture<ExecResult> answer) {
        send("K " + id);
        try {
            ExecResult last = answer.get(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            return new ExecResult(-1, last.stdout(), last.stderr(), true, last.truncated());
        } catch (TimeoutException e) {
            LOG.warnf("could not kill a timed-out command in %s within %d s", container, KILL_WAIT.toSeconds());
            return new ExecResult(-1, "", "", true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ExecResult(-1, "", "", true);
        } catch (ExecutionException e) {
            // Gone while killing: the command timed out all the same, and must not run again by exec.
            return new ExecResult(-1, "", "", true);
        }
    }

    private boolean send(String line) {
        return stdin.offer((line + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** Each argument's bytes in hex, separated by a NUL (00): no byte of an argument can break the request's line. */
    private static String hex(List<String> argv) {
        StringBuilder line = new StringBuilder();
        for (String arg : argv) {
            if (!line.isEmpty()) {
                line.append("00");
            }
            line.append(HexFormat.of().formatHex(arg.getBytes(StandardCharsets.UTF_8)));
        }
        return line.toString();
    }

    private void answered(String id, ExecResult result) {
        CompletableFuture<ExecResult> answer = waiting.get(id);
        if (answer != null) {
            answer.complete(result);
        }
    }

    private void end(String why) {
        if (gone == null) {
            gone = why;
        }
        waiting.values().forEach(f -> f.completeExceptionally(new Gone(why)));
    }

    @Override
    public void close() {
        end("closed");
        stdin.close();
        try {
            callback.close();
        } catch (IOException e) {
            // Closing a stream that broke already cannot fail in a way that matters.
        }
    }

    /** The agent cannot run commands (any more); {@code getMessage()} says why. */
    static final class Gone extends Exception {
        Gone(String why) {
            super(why);
        }
    }

    private static String script() {
        try (InputStream in = SidecarAgent.class.getResourceAsStream("sidecar-agent.pl")) {
            if (in == null) {
                throw new IllegalStateException("sidecar-agent.pl is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
