package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.QueueInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a node's setup (links up, addresses, the lesson's setup commands) in the node's own main process, instead of a
 * Docker exec: an exec costs the engine three API calls and a runc process (50-80 ms of CPU), and a class of 30
 * starting at once made 60 of them on 2 cores. The node's command ({@link #command}) waits for one line on its
 * standard input, runs the setup script as its child exactly as the exec ran it (same container, namespaces, user,
 * capabilities and environment, no input), reports its exit code, and becomes {@code sleep infinity}, the node's
 * main process as before. The app attaches to it once the node runs and sends the line once the links are wired.
 *
 * <p>Nobody else is in the node yet (a learner's terminal opens only once the lab is ready), and the node's standard
 * input closes when the app detaches ({@code StdinOnce}), so nothing reaches the setup but the app. The line is a
 * random nonce that the setup never sees (the shell's variable is not exported): the setup's own output cannot pass
 * for the end of it. What the setup prints is kept as an exec's output is, the first {@link
 * BoundedCommand#MAX_CAPTURE_BYTES} of each stream.
 */
final class NodeSetup implements AutoCloseable {

    /**
     * The node's main process: {@code $1} is the setup script. Its exit code follows a newline and the nonce on
     * standard output, and the nonce alone ends standard error (the two streams reach the app apart, in any order).
     * Without a line (the app went away before the wiring), the node runs without setup, and the app removes it.
     */
    private static final String INIT = "IFS= read -r nonce || exec sleep infinity\n"
            + "sh -c \"$1\" </dev/null\n"
            + "code=$?\n"
            + "printf '\\n%s %s\\n' \"$nonce\" \"$code\"\n"
            + "printf '\\n%s\\n' \"$nonce\" >&2\n"
            + "exec sleep infinity\n";

    private final String nonce = UUID.randomUUID().toString().replace("-", "");
    private final QueueInputStream stdin = new QueueInputStream(1024);
    private final Capture out = new Capture(Pattern.compile("\n" + nonce + " (\\d+)\n"));
    private final Capture err = new Capture(Pattern.compile("\n" + nonce + "\n"));
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final QuietCallback<Frame> callback;

    /** The command of a node whose main process runs {@code setupScript} when told (see above). */
    static List<String> command(String setupScript) {
        return List.of("sh", "-c", INIT, "tclab-setup", setupScript);
    }

    /** Attaches to the running node's main process; nothing runs until {@link #run}. */
    NodeSetup(DockerClient docker, String container) {
        this.callback = new QuietCallback<>() {
            @Override
            public void onNext(Frame frame) {
                Capture capture = frame.getStreamType() == StreamType.STDERR ? err : out;
                if (capture.add(frame.getPayload()) && out.done() && err.done()) {
                    ended.complete(null);
                }
            }

            @Override
            public void onError(Throwable error) {
                super.onError(error);
                ended.complete(null);
            }

            @Override
            public void onComplete() {
                super.onComplete();
                ended.complete(null);
            }
        };
        docker.attachContainerCmd(container)
                .withStdIn(stdin)
                .withStdOut(true)
                .withStdErr(true)
                .withFollowStream(true)
                .withLogs(false)
                .exec(callback);
    }

    /**
     * Runs the setup and returns as an exec's result would: its exit code and output, or timed out after
     * {@code timeout} (the caller then removes the node, and the setup with it); detaches either way.
     */
    ExecResult run(Duration timeout) {
        stdin.offer((nonce + "\n").getBytes(StandardCharsets.US_ASCII));
        try {
            ended.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!out.done() || !err.done()) {
                return result(-1, false, "the node's main process ended during its setup");
            }
            return result(out.code(), false, "");
        } catch (TimeoutException e) {
            return result(-1, true, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return result(-1, true, "");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            close();
        }
    }

    private ExecResult result(int code, boolean timedOut, String why) {
        String stderr = err.text();
        return new ExecResult(
                code, out.text(), why.isEmpty() ? stderr : stderr + why, timedOut, out.cut() || err.cut());
    }

    @Override
    public void close() {
        stdin.close();
        try {
            callback.close();
        } catch (IOException e) {
            // Closing a stream that ended already cannot fail in a way that matters.
        }
    }

    /**
     * One stream of the setup, up to its end mark: the first MAX_CAPTURE_BYTES kept, and a tail long enough to find
     * the mark across frames; what comes after the mark (a process the setup left running) is not read.
     */
    private static final class Capture {
        private final Pattern mark;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private String tail = "";
        private boolean cut;
        private Integer code;
        private volatile boolean done;

        Capture(Pattern mark) {
            this.mark = mark;
        }

        /** Adds a frame; whether this frame ended the stream. */
        synchronized boolean add(byte[] payload) {
            if (done) {
                return false;
            }
            int room = BoundedCommand.MAX_CAPTURE_BYTES - kept.size();
            cut |= payload.length > room;
            kept.write(payload, 0, Math.max(0, Math.min(room, payload.length)));
            // ISO-8859-1 keeps one char per byte, so the tail's length bounds its bytes whatever the output holds.
            String text = tail + new String(payload, StandardCharsets.ISO_8859_1);
            Matcher end = mark.matcher(text);
            if (end.find()) {
                code = end.groupCount() > 0 ? Integer.valueOf(end.group(1)) : null;
                done = true;
                return true;
            }
            tail = text.substring(Math.max(0, text.length() - mark.pattern().length() - 12));
            return false;
        }

        boolean done() {
            return done;
        }

        synchronized int code() {
            return code == null ? -1 : code;
        }

        synchronized boolean cut() {
            return cut;
        }

        /** What the setup printed, without the end mark (which follows it after a newline of the mark's own). */
        synchronized String text() {
            String all = kept.toString(StandardCharsets.UTF_8);
            Matcher end = mark.matcher(all);
            return end.find() ? all.substring(0, end.start()) : all;
        }
    }
}
