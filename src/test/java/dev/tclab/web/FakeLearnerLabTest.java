package dev.tclab.web;

import dev.tclab.lab.FakeLabRuntime;
import jakarta.inject.Inject;
import java.time.Duration;

/** A {@link LearnerLabTest} on the fake lab runtime (FakeRuntimeProfile), reset before each test's lab starts. */
public abstract class FakeLearnerLabTest extends LearnerLabTest {

    @Inject
    protected FakeLabRuntime runtime;

    protected FakeLearnerLabTest(String lesson) {
        super(lesson, Duration.ofSeconds(10));
    }

    @Override
    protected void beforeStart() {
        runtime.reset();
    }
}
