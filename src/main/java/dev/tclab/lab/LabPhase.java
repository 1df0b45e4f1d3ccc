package dev.tclab.lab;

/** Where a lab is in its life. */
public enum LabPhase {
    STARTING, RUNNING, STOPPED, FAILED;

    /** True while the lab holds (or is about to hold) containers, and so counts against the server's maximum. */
    public boolean live() {
        return this == STARTING || this == RUNNING;
    }
}
