package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.exception.InternalServerErrorException;
import dev.tclab.runtime.ProcessLimit;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DockerProcessStreamTest {

    private static final String RUNC =
            "Status 500: {\"message\":\"OCI runtime exec failed: exec failed: unable to start"
                    + " container process: read init-p: connection reset by peer: unknown\"}";

    @Test
    void anExecTheEngineCouldNotStartInANodeAtItsProcessLimitSaysSoInPlainWords() {
        assertThat(DockerProcessStream.whyBroken(new InternalServerErrorException(RUNC), () -> true))
                .isEqualTo(ProcessLimit.NO_SHELL_STARTS);
    }

    @Test
    void otherBreaksKeepTheEnginesWords() {
        assertThat(DockerProcessStream.whyBroken(new InternalServerErrorException(RUNC), () -> false))
                .isEqualTo("the stream broke: Status 500: " + RUNC);
        assertThat(DockerProcessStream.whyBroken(new IOException("reset"), () -> true))
                .isEqualTo("the stream broke: reset");
        assertThat(DockerProcessStream.whyBroken(new InternalServerErrorException(RUNC), () -> {
                    throw new IllegalStateException("the engine did not answer");
                }))
                .isEqualTo("the stream broke: Status 500: " + RUNC);
    }

    @Test
    void aShellThatEndsAtOnceInANodeAtItsProcessLimitSaysSoInPlainWords() {
        assertThat(DockerProcessStream.whyEnded(Duration.ofMillis(300), () -> true))
                .isEqualTo(ProcessLimit.NO_SHELL_STARTS);
    }

    @Test
    void aProcessThatRanAWhileOrEndedInANodeWithRoomSimplyExited() {
        assertThat(DockerProcessStream.whyEnded(Duration.ofMinutes(3), () -> true))
                .isEqualTo("the process exited");
        assertThat(DockerProcessStream.whyEnded(Duration.ofMillis(300), () -> false))
                .isEqualTo("the process exited");
        assertThat(DockerProcessStream.whyEnded(Duration.ofMillis(300), () -> {
                    throw new IllegalStateException("the engine did not answer");
                }))
                .isEqualTo("the process exited");
    }
}
