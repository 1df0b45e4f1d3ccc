package dev.tclab.lab.kubernetes;

import dev.tclab.lab.runtime.BoundedCommand;
import dev.tclab.lab.runtime.ExecResult;
import dev.tclab.lab.runtime.ProcessStream;
import dev.tclab.lab.runtime.QueueInputStream;
import dev.tclab.lab.runtime.StreamListener;
import dev.tclab.lab.runtime.StreamProcess;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.TtyExecErrorable;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * A long-running process in a lab pod (a shell with a TTY, or a statistics sampler) attached over an exec through
 * the API server. Its input is bounded as on Docker; closing it ends the attachment and kills the process, which an
 * exec's closed stream alone does not.
 */
final class KubeProcessStream implements ProcessStream {

    private static final Logger LOG = Logger.getLogger(KubeProcessStream.class);
    /** Input queued for a process that does not read it; beyond this, writes are refused (see ProcessStream). */
    static final long MAX_QUEUED_INPUT_BYTES = 1 << 20;

    private final KubernetesClient client;
    private final String namespace;
    private final String pod;
    private final String container;
    /** The stream's process, found as it started (as on Docker); empty when it ended at once (or was not found). */
    private final Optional<StreamProcess> process;
    private final Executor background;
    private final QueueInputStream stdin = new QueueInputStream(MAX_QUEUED_INPUT_BYTES);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private final ExecWatch watch;
    private final StreamListener listener;

    KubeProcessStream(KubernetesClient client, String namespace, String pod, String container, List<String> command,
                      boolean tty, StreamListener listener, Executor background) {
        this.client = client;
        this.namespace = namespace;
        this.pod = pod;
        this.container = container;
        this.background = background;
        this.listener = listener;
        OutputStream output = new OutputStream() {
            @Override
            public void write(int b) {
                listener.onOutput(new byte[] {(byte) b});
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                listener.onOutput(Arrays.copyOfRange(bytes, offset, offset + length));
            }
        };
        ExecListener ends = new ExecListener() {
            @Override
            public void onFailure(Throwable error, Response response) {
                background.execute(() -> finished(true, "the stream broke: " + error.getMessage()));
            }

            @Override
            public void onClose(int code, String reason) {
                background.execute(() -> finished(false, "the process exited"));
            }
        };
        // As on Docker (DockerProcessStream): the marker finds the process once, as it starts; then the app keeps its
        // pid and start time. An exec through the API server cannot set the environment, so env(1) sets it.
        String marker = UUID.randomUUID().toString();
        List<String> wrapped = prefixed(tty
                ? List.of("env", BoundedCommand.STREAM_MARKER + "=" + marker, "TERM=xterm-256color", "LANG=C.UTF-8")
                : List.of("env", BoundedCommand.STREAM_MARKER + "=" + marker), command);
        TtyExecErrorable streams = client.pods().inNamespace(namespace).withName(pod).inContainer(container)
                .readingInput(stdin).writingOutput(output);
        var execable = tty ? streams.withTTY() : streams.writingError(output);
        this.watch = execable.usingListener(ends).exec(wrapped.toArray(String[]::new));
        // Found before this constructor returns, so before any input of the learner's reaches the new process.
        this.process = find(marker);
    }

    private Optional<StreamProcess> find(String marker) {
        try {
            ExecResult found = KubeExec.run(client, namespace, pod, container,
                    List.of("sh", "-c", BoundedCommand.findStarted(marker)), Duration.ofSeconds(5));
            return BoundedCommand.started(found.stdout());
        } catch (RuntimeException e) {
            LOG.warnf("a stream in %s: its process was not found, so closing it will not end it: %s", pod,
                    e.getMessage());
            return Optional.empty();
        }
    }

    private static List<String> prefixed(List<String> prefix, List<String> command) {
        return java.util.stream.Stream.concat(prefix.stream(), command.stream()).toList();
    }

    /** A failed stream means the API server (or the connection to it) went away; the process may outlive it. */
    private void finished(boolean failed, String reason) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        if (closed.get()) {
            listener.onClosed("closed");
        } else if (failed) {
            listener.onEngineLost("the connection to the Kubernetes API server broke");
        } else {
            listener.onClosed(reason);
        }
    }

    @Override
    public boolean write(byte[] input) {
        return stdin.offer(input);
    }

    @Override
    public void resize(int columns, int rows) {
        try {
            watch.resize(columns, rows);
        } catch (RuntimeException e) {
            LOG.debugf("resize of a stream in %s failed: %s", pod, e.getMessage());
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stdin.close();
        watch.close();
        background.execute(() -> finished(false, "closed"));
        background.execute(this::killProcess);
    }

    private void killProcess() {
        if (process.isEmpty()) {
            return;
        }
        try {
            KubeExec.run(client, namespace, pod, container, List.of("sh", "-c", BoundedCommand.hangUp(process.get())),
                    Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            // The pod is gone (lab stopped): so is the process.
            LOG.debugf("could not kill stream process in %s: %s", pod, e.getMessage());
        }
    }
}
