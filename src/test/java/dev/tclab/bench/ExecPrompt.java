package dev.tclab.bench;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The floor of a prompt from an already running lab node: its login shell by a direct docker-java exec attach with a
 * TTY, in this JVM (no CLI process to start), timed until the prompt ({@code @<node>}) arrives.
 */
final class ExecPrompt {

    private ExecPrompt() {}

    /** Milliseconds from the exec's create to the prompt of {@code node} in container {@code containerId}. */
    static double millis(DockerClient docker, String containerId, String node, Duration wait) throws Exception {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        CompletableFuture<Void> prompt = new CompletableFuture<>();
        ResultCallback.Adapter<Frame> callback = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                synchronized (output) {
                    output.writeBytes(frame.getPayload());
                    if (output.toString(StandardCharsets.UTF_8).contains("@" + node)) {
                        prompt.complete(null);
                    }
                }
            }
        };
        long t0 = System.nanoTime();
        String exec = docker.execCreateCmd(containerId)
                .withCmd("bash", "-l")
                .withTty(true)
                .withAttachStdin(true)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .withEnv(List.of("TERM=xterm-256color"))
                .exec()
                .getId();
        try (callback) {
            docker.execStartCmd(exec).withTty(true).exec(callback);
            prompt.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return (System.nanoTime() - t0) / 1e6;
        }
    }
}
