package dev.tclab.grading;

import dev.tclab.grading.run.CheckProgress;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.spec.CheckSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One press of a step's Check button (or one background watch round): the step's checks, run in order in the
 * learner's lab, with live progress for the page to poll.
 */
public final class CheckRun {

    /** Where the run is; the last three are final. */
    public enum State {
        QUEUED,
        WAITING_FOR_SLOT,
        MEASURING,
        PASSED,
        FAILED,
        ERROR
    }

    private final String id;
    private final String labId;
    private final String owner;
    private final String lesson;
    private final String stepId;
    private final Instant startedAt;
    private final List<CheckResult> results = new CopyOnWriteArrayList<>();
    private volatile State state = State.QUEUED;
    private volatile String detail = "";
    private volatile Duration passingTime = Duration.ZERO;
    private volatile Duration longestTime = Duration.ZERO;

    CheckRun(String id, String labId, String owner, String lesson, String stepId, Instant startedAt) {
        this.id = id;
        this.labId = labId;
        this.owner = owner;
        this.lesson = lesson;
        this.stepId = stepId;
        this.startedAt = startedAt;
    }

    public String id() {
        return id;
    }

    public String labId() {
        return labId;
    }

    public String owner() {
        return owner;
    }

    public String lesson() {
        return lesson;
    }

    public String stepId() {
        return stepId;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public State state() {
        return state;
    }

    /** What the run is doing now, in words ("waiting for a measurement slot", "measuring (attempt 2)"). */
    public String detail() {
        return detail;
    }

    /** How long its checks measure when they pass at once ({@link CheckSpec#passingTime}), summed. */
    public Duration passingTime() {
        return passingTime;
    }

    /** How long its checks measure at most ({@link CheckSpec#longestTime}), summed. */
    public Duration longestTime() {
        return longestTime;
    }

    /** Its checks' measuring times, known once their specs are read. */
    void expect(Duration passing, Duration longest) {
        passingTime = passing;
        longestTime = longest;
    }

    public List<CheckResult> results() {
        return List.copyOf(results);
    }

    public boolean finished() {
        return state == State.PASSED || state == State.FAILED || state == State.ERROR;
    }

    void progress(CheckProgress progress) {
        switch (progress.stage()) {
            case WAITING_FOR_SLOT -> update(State.WAITING_FOR_SLOT, progress.detail());
            case MEASURING ->
                update(
                        State.MEASURING,
                        "measuring" + (progress.attempt() > 1 ? " (sample " + progress.attempt() + ")" : ""));
            case WAITING -> update(State.MEASURING, "waiting before the next sample");
            case DONE -> {}
        }
    }

    void add(CheckResult result) {
        results.add(result);
    }

    void finish(State finalState, String why) {
        update(finalState, why);
    }

    private void update(State next, String words) {
        state = next;
        detail = words;
    }
}
