package dev.tclab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The stream scripts' contract in the app: what it trusts from the lookup, and what a hang-up signals. */
class BoundedCommandTest {

    @Test
    void shouldTrustOnlyASingleProcessFromTheLookup() {
        assertThat(BoundedCommand.started("731 2162493\n")).contains(new StreamProcess(731, 2162493));
        assertThat(BoundedCommand.started("")).as("ended at once").isEmpty();
        assertThat(BoundedCommand.started("731 2162493\n745 2162600\n"))
                .as("a copied marker")
                .isEmpty();
        assertThat(BoundedCommand.started("731 x\n")).isEmpty();
        assertThat(BoundedCommand.started("731\n")).isEmpty();
    }

    @Test
    void shouldSignalOnlyThatPidWhileItIsStillTheSameProcessAndReadNoFile() {
        String hangUp = BoundedCommand.hangUp(new StreamProcess(731, 2162493));
        assertThat(hangUp)
                .contains("/proc/731/stat", "= 2162493 ]", "kill -HUP -- -731", "kill -KILL 731")
                .doesNotContain("/run", "/tmp", "/root");
        assertThat(BoundedCommand.findStarted("abc"))
                .contains("'TCLAB_STREAM=abc'", "[ \"$2\" = 0 ]")
                .doesNotContain("/run", "/tmp", "/root");
    }
}
