package dev.tclab.runtime.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import dev.tclab.runtime.agent.SidecarAgent;

/** A container's standard input and output, attached through the Docker engine: the line to the agent it runs. */
public final class DockerAttach {

    private DockerAttach() {}

    /** Attaches to {@code container}'s main process; only what it prints from now on is read (no logs). */
    public static SidecarAgent.Attachment to(DockerClient docker, String container) {
        return (input, output) -> {
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
        };
    }
}
