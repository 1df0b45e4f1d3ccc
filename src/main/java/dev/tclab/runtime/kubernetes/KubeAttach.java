package dev.tclab.runtime.kubernetes;

import dev.tclab.runtime.agent.SidecarAgent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecListener;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A pod container's standard input and output, attached through the API server ({@code pods/attach}): the line to
 * the agent in a User-Mode Linux lab's kernel. The container must have {@code stdin: true}; only what it prints from
 * now on is read.
 */
final class KubeAttach {

    private KubeAttach() {}

    static SidecarAgent.Attachment to(KubernetesClient client, String namespace, String pod, String container) {
        return (input, output) -> client.pods()
                .inNamespace(namespace)
                .withName(pod)
                .inContainer(container)
                .readingInput(input)
                .writingOutput(forwarding(output::stdout))
                .writingError(forwarding(output::stderr))
                .usingListener(new ExecListener() {
                    @Override
                    public void onFailure(Throwable error, Response response) {
                        output.ended("its stream broke: " + error.getMessage());
                    }

                    @Override
                    public void onClose(int code, String reason) {
                        output.ended("its stream ended");
                    }
                })
                .attach();
    }

    /** An output stream that hands each write to {@code to} as a copy. */
    static OutputStream forwarding(Consumer<byte[]> to) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                to.accept(new byte[] {(byte) b});
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                to.accept(Arrays.copyOfRange(bytes, offset, offset + length));
            }
        };
    }
}
