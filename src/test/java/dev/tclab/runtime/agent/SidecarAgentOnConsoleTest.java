package dev.tclab.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tclab.runtime.StreamListener;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Waiting for the agent on a UML kernel's console, with the console played by the test. */
class SidecarAgentOnConsoleTest {

    private static SidecarAgent.Attachment printing(String console) {
        return (input, output) -> {
            output.stdout(console.getBytes(StandardCharsets.ISO_8859_1));
            return (Closeable) () -> {};
        };
    }

    @Test
    void shouldGiveUpAtOnceWhenTheKernelPanicsAndSayItsPanic() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> SidecarAgent.onConsole(
                        "lab-1",
                        printing("Run /tclab/init as init process\n"
                                + "Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b\n"
                                + " [<60051a99>] do_exit+0x22a/0xa47\n"),
                        Duration.ofSeconds(30)))
                .isInstanceOf(SidecarAgent.Gone.class)
                .hasMessage("it panicked; its console last said: Kernel panic - not syncing: Attempted to kill init!"
                        + " exitcode=0x0000000b");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void shouldSayWhatTheConsoleLastPrintedWhenTheAgentDoesNotAnswerInTime() {
        assertThatThrownBy(() -> SidecarAgent.onConsole(
                        "lab-2", printing("VFS: Mounted root (hostfs filesystem) readonly\n"), Duration.ofMillis(300)))
                .isInstanceOf(SidecarAgent.Gone.class)
                .hasMessage("it did not answer within 0 s; its console last said: VFS: Mounted root (hostfs filesystem)"
                        + " readonly");
        assertThatThrownBy(() -> SidecarAgent.onConsole("lab-3", printing(""), Duration.ofMillis(300)))
                .hasMessage("it did not answer within 0 s; its console printed nothing");
    }

    /** A console whose agent is ready at once; {@code line} is where the test prints and ends it. */
    private static SidecarAgent.Attachment console(AtomicReference<SidecarAgent.Output> line) {
        return (input, output) -> {
            line.set(output);
            output.stdout("@@tclab-ready\n".getBytes(StandardCharsets.US_ASCII));
            return (Closeable) () -> {};
        };
    }

    @Test
    void shouldCountWhatItHearsEvenOutOfStepAndTellItsStreamsWhyWhenAbandoned() throws Exception {
        AtomicReference<SidecarAgent.Output> line = new AtomicReference<>();
        SidecarAgent agent = SidecarAgent.onConsole("lab-5", console(line), Duration.ofSeconds(5));
        AtomicReference<String> closed = new AtomicReference<>();
        agent.stream(List.of("sh"), true, new StreamListener() {
            @Override
            public void onOutput(byte[] chunk) {}

            @Override
            public void onClosed(String reason) {
                closed.set(reason);
            }
        });
        long before = agent.heard();
        line.get().stdout("@@tclab-ack 2\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(agent.heard()).isGreaterThan(before);

        agent.abandon("The lab's kernel stopped answering.");

        assertThat(closed.get()).as("the stream ends, not lost").isEqualTo("The lab's kernel stopped answering.");
        assertThat(agent.gone()).isTrue();
        assertThatThrownBy(() -> agent.run(List.of("true"), Duration.ofSeconds(1)))
                .isInstanceOf(SidecarAgent.Gone.class)
                .hasMessage("The lab's kernel stopped answering.");
    }

    @Test
    void shouldStillHearAnAgentOutOfStepButNothingOnceItsAttachmentEnded() throws Exception {
        AtomicReference<SidecarAgent.Output> line = new AtomicReference<>();
        SidecarAgent agent = SidecarAgent.onConsole("lab-6", console(line), Duration.ofSeconds(5));
        line.get().stdout("Kernel says something\n".getBytes(StandardCharsets.US_ASCII));
        long outOfStep = agent.heard();
        line.get().stdout("@@tclab-ready\n".getBytes(StandardCharsets.US_ASCII));

        assertThat(agent.gone()).isTrue();
        assertThat(agent.heard()).as("a gone agent still hears its kernel").isGreaterThan(outOfStep);
        assertThat(agent.detached()).isFalse();
        line.get().ended("the container stopped");
        assertThat(agent.detached()).isTrue();
        agent.close();
    }

    @Test
    void shouldBeReadyOnceTheAgentSaysSoAfterTheBoot() throws Exception {
        SidecarAgent agent = SidecarAgent.onConsole(
                "lab-4",
                printing("Linux version 6.1.176\nKernel panicked? no\n@@tclab-ready\n"),
                Duration.ofSeconds(5));

        assertThat(agent.gone()).isFalse();
        agent.close();
    }
}
