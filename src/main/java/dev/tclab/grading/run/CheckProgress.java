package dev.tclab.grading.run;

/** What a running check is doing, for the learner's Check button. */
public record CheckProgress(String checkId, Stage stage, int attempt, String detail) {

    public enum Stage {
        /** Every measurement slot of the host is busy; the check waits for one (detail: its place in line). */
        WAITING_FOR_SLOT,
        MEASURING,
        /** Pausing between samples (retry or stable window). */
        WAITING,
        DONE
    }
}
