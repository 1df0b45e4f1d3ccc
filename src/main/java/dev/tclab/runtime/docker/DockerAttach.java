package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.runtime.agent.SidecarAgent;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A container's standard input and output, attached through the Docker engine: the line to the agent it runs. */
public final class DockerAttach {

    private static final Duration ATTACHING = Duration.ofSeconds(10);

    private DockerAttach() {}

    /** Attaches to {@code container}'s main process; only what it prints from now on is read (no logs). */
    public static SidecarAgent.Attachment to(DockerClient docker, String container) {
        return (input, output) -> attach(docker, container, input, output);
    }

    /**
     * Attaches to {@code container}, created and not yet started, then starts it, as {@code docker start -a} does: what
     * its process prints first is read too (a UML kernel says there how it will run its processes, and its containers
     * keep no log to read it back from).
     */
    public static SidecarAgent.Attachment thenStart(DockerClient docker, String container) {
        return (input, output) -> {
            QuietCallback<Frame> attached = attach(docker, container, input, output);
            try {
                if (attached.awaitStarted(ATTACHING.toMillis(), TimeUnit.MILLISECONDS)) {
                    docker.startContainerCmd(container).exec();
                } else {
                    output.ended("the engine did not attach to it within " + ATTACHING.toSeconds() + " s");
                }
            } catch (InterruptedException e) {
                // Not started: the wait for the agent sees the interrupt and gives up at once.
                Thread.currentThread().interrupt();
            }
            return attached;
        };
    }

    private static QuietCallback<Frame> attach(
            DockerClient docker, String container, InputStream input, SidecarAgent.Output output) {
        QuietCallback<Frame> callback = new QuietCallback<>() {
            @Override
            public void onNext(Frame frame) {
                if (frame.getStreamType() == StreamType.STDERR) {
                    output.stderr(frame.getPayload());
                } else {
                    output.stdout(frame.getPayload());
                }
            }

            @Override
            public void onError(Throwable error) {
                super.onError(error);
                output.ended("its stream broke: " + error.getMessage());
            }

            @Override
            public void onComplete() {
                super.onComplete();
                output.ended("its stream ended");
            }
        };
        docker.attachContainerCmd(container)
                .withStdIn(input)
                .withStdOut(true)
                .withStdErr(true)
                .withFollowStream(true)
                .withLogs(false)
                .exec(callback);
        return callback;
    }
}
