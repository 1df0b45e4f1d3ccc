package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.AttachedStream;
import dev.tclab.runtime.BoundedCommand;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.StreamListener;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.TtyExecErrorable;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;

/**
 * A long-running process in a lab pod (a shell with a TTY, or a statistics sampler) attached over an exec through
 * the API server. Its input is bounded as on Docker; closing it ends the attachment and kills the process, which an
 * exec's closed stream alone does not.
 */
final class KubeProcessStream extends AttachedStream {

    private final KubernetesClient client;
    private final String namespace;
    private final String pod;
    private final String container;
    private final ExecWatch watch;
    private final StreamListener listener;

    KubeProcessStream(
            KubernetesClient client,
            String namespace,
            String pod,
            String container,
            List<String> command,
            boolean tty,
            StreamListener listener,
            Executor background) {
        super(background);
        this.client = client;
        this.namespace = namespace;
        this.pod = pod;
        this.container = container;
        this.listener = listener;
        OutputStream output = KubeAttach.forwarding(listener::onOutput);
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
        List<String> wrapped = prefixed(
                tty
                        ? List.of(
                                "env",
                                BoundedCommand.STREAM_MARKER + "=" + marker,
                                "TERM=xterm-256color",
                                "LANG=C.UTF-8")
                        : List.of("env", BoundedCommand.STREAM_MARKER + "=" + marker),
                command);
        TtyExecErrorable streams = client.pods()
                .inNamespace(namespace)
                .withName(pod)
                .inContainer(container)
                .readingInput(stdin)
                .writingOutput(output);
        var execable = tty ? streams.withTTY() : streams.writingError(output);
        this.watch = execable.usingListener(ends).exec(wrapped.toArray(String[]::new));
        // Found before this constructor returns, so before any input of the learner's reaches the new process.
        findProcess(marker);
    }

    private static List<String> prefixed(List<String> prefix, List<String> command) {
        return java.util.stream.Stream.concat(prefix.stream(), command.stream()).toList();
    }

    /** A failed stream means the API server (or the connection to it) went away; the process may outlive it. */
    private void finished(boolean failed, String reason) {
        if (!firstReport()) {
            return;
        }
        if (closed()) {
            listener.onClosed("closed");
        } else if (failed) {
            listener.onEngineLost("the connection to the Kubernetes API server broke");
        } else {
            listener.onClosed(reason);
        }
    }

    @Override
    protected ExecResult runBeside(List<String> command, Duration timeout) {
        return KubeExec.run(client, namespace, pod, container, command, timeout);
    }

    @Override
    protected void resizeTerminal(int columns, int rows) {
        watch.resize(columns, rows);
    }

    @Override
    protected void detach() {
        watch.close();
        background.execute(() -> finished(false, "closed"));
    }

    @Override
    protected String where() {
        return "pod " + pod;
    }
}
