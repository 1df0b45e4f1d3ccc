package dev.tclab.lab.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
