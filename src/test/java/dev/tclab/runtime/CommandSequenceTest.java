package dev.tclab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The sequence's script run by this machine's own sh, as a lab's sidecar runs it, and its output told apart. */
class CommandSequenceTest {

    @Test
    void shouldTellEachStepsOutputExitCodeAndTimeoutApart() throws Exception {
        CommandSequence sequence = new CommandSequence(List.of(
                new CommandSequence.Step(
                        List.of("sh", "-c", "printf 'a\\nb'; echo oops >&2; exit 3"), Duration.ofSeconds(5)),
                new CommandSequence.Step(
                        List.of("sh", "-c", "echo \"it's $1\"", "sh", "quoted 'word'"), Duration.ofSeconds(5)),
                new CommandSequence.Step(List.of("sleep", "30"), Duration.ofSeconds(1)),
                new CommandSequence.Step(List.of("true"), Duration.ofSeconds(5))));

        List<ExecResult> results = sequence.split(run(sequence.command()));

        assertThat(results)
                .containsExactly(
                        new ExecResult(3, "a\nb", "oops\n", false),
                        new ExecResult(0, "it's quoted 'word'\n", "", false),
                        new ExecResult(-1, "", "", true),
                        new ExecResult(0, "", "", false));
        assertThat(sequence.timeout()).isEqualTo(Duration.ofSeconds(1 + 7 + 7 + 3 + 7));
    }

    @Test
    void shouldReportTheStepsAnOutputCutOrATimeoutLeftUnfinished() {
        CommandSequence sequence = new CommandSequence(List.of(
                new CommandSequence.Step(List.of("cat", "big"), Duration.ofSeconds(5)),
                new CommandSequence.Step(List.of("true"), Duration.ofSeconds(5))));

        List<ExecResult> results = sequence.split(new ExecResult(-1, "xxxx", "", false, true));

        assertThat(results)
                .containsExactly(new ExecResult(-1, "xxxx", "", false, true), new ExecResult(-1, "", "", false, true));
    }

    private static ExecResult run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new ExecResult(process.exitValue(), out, err, false);
    }
}
