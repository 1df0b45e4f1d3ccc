package dev.tclab.web;

import dev.tclab.learner.LearnerIds;
import io.quarkus.test.common.http.TestHTTPResource;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of @QuarkusTest classes whose every test needs a new learner with a running lab of one lesson: started through
 * the public API, as a page does, before each test and stopped after it.
 */
public abstract class LearnerLabTest {

    @TestHTTPResource("/")
    protected URI base;

    @Inject
    protected LearnerIds learnerIds;

    /** The learner's signed cookie and the id of their running lab, new for each test. */
    protected String cookie;

    protected String labId;

    private final String lesson;
    private final Duration startTimeout;

    protected LearnerLabTest(String lesson, Duration startTimeout) {
        this.lesson = lesson;
        this.startTimeout = startTimeout;
    }

    /** Runs before each test's lab starts. */
    protected void beforeStart() {}

    @BeforeEach
    protected void startLab() throws InterruptedException {
        beforeStart();
        cookie = learnerIds.sign(learnerIds.newId());
        labId = TestLabs.startAndAwait(lesson, cookie, startTimeout);
    }

    @AfterEach
    protected void stopLab() {
        TestLabs.stop(labId, cookie);
    }

    /** The terminal socket of {@code node} of this test's lab, as the learner of {@code asCookie} opens it. */
    protected TestSocket openTerminal(String node, String asCookie) throws Exception {
        return TestSocket.terminal(base, labId, node, asCookie);
    }

    /** The statistics socket of this test's lab, as the learner of {@code asCookie} opens it. */
    protected TestSocket openStats(String asCookie) throws Exception {
        return TestSocket.stats(base, labId, asCookie);
    }
}
