package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.learner.LearnerIds;
import dev.tclab.web.TestLabs;
import dev.tclab.web.TestSocket;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Forgotten tabs: a lab with no page open is stopped after tclab.lab.unwatched-timeout, well before idle ones. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class UnwatchedCullTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TestHTTPResource("/")
    URI base;

    @Inject
    LearnerIds learnerIds;

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabWatchers watchers;

    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private Lab runningLab(String cookie) throws Exception {
        String id = TestLabs.startAndAwait("example", cookie, WAIT);
        return labs.all().stream().filter(l -> l.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void shouldStopALabWithNoPageOpenAfterTheUnwatchedTimeoutButKeepOneWithAPageOpen() throws Exception {
        String annCookie = learnerIds.sign(learnerIds.newId());
        String bobCookie = learnerIds.sign(learnerIds.newId());
        Lab forgotten = runningLab(annCookie);
        Lab watched = runningLab(bobCookie);
        try (TestSocket page =
                TestSocket.open(base, "/ws/labs/" + watched.id() + "/stats", bobCookie, TestSocket.originOf(base))) {
            // The socket is open once its handshake is answered; the app counts it as a watcher just after (on a
            // loaded machine, after the culls below had run).
            for (int i = 0; i < 250 && !watchers.watchedLabs().contains(watched.id()); i++) {
                Thread.sleep(20);
            }
            assertThat(watchers.watchedLabs())
                    .as("the open page watches its lab")
                    .contains(watched.id());
            labs.cull(Instant.now().plus(Duration.ofMinutes(5)));
            assertThat(forgotten.phase()).as("not yet: 5 of 10 minutes").isEqualTo(LabPhase.RUNNING);

            labs.cull(Instant.now().plus(Duration.ofMinutes(11)));
            assertThat(forgotten.phase()).isEqualTo(LabPhase.STOPPED);
            assertThat(forgotten.reason())
                    .contains("10 minutes with no page open")
                    .contains("Start it again");
            assertThat(runtime.running).doesNotContainKey(forgotten.id());
            assertThat(watched.phase()).isEqualTo(LabPhase.RUNNING);
        }
        for (int i = 0; i < 100 && watchers.watchedLabs().contains(watched.id()); i++) {
            Thread.sleep(20);
        }
        assertThat(watchers.watchedLabs()).doesNotContain(watched.id());
        // Its page closed at about minute 11 (the last cull that saw it open): ten minutes later it goes too.
        labs.cull(Instant.now().plus(Duration.ofMinutes(20)));
        assertThat(watched.phase()).as("9 minutes after its page closed").isEqualTo(LabPhase.RUNNING);
        labs.cull(Instant.now().plus(Duration.ofMinutes(22)));
        assertThat(watched.phase()).isEqualTo(LabPhase.STOPPED);
    }
}
