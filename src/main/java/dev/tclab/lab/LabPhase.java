package dev.tclab.lab;

/** Where a lab is in its life. */
public enum LabPhase {
    /** Waiting in the start queue for a free slot: no containers yet, not counted against the server's maximum. */
    QUEUED,
    STARTING,
    RUNNING,
    STOPPED,
    FAILED;

    /** True until the lab ends: the learner's one lab for the lesson, whether queued, starting or running. */
    public boolean live() {
        return this == QUEUED || holdsSlot();
    }

    /** True while the lab holds (or is about to hold) containers, and so counts against the server's maximum. */
    public boolean holdsSlot() {
        return this == STARTING || this == RUNNING;
    }
}
