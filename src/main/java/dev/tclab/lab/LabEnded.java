package dev.tclab.lab;

/**
 * CDI event: a lab stopped, failed or died, so whatever was kept for it (baselines, check runs) can go.
 *
 * @param replaced whether a fresh lab of the same lesson starts for its learner in its place (a host's reset), so
 *     their pages wait for it rather than offer Start
 */
public record LabEnded(String labId, boolean replaced) {

    public LabEnded(String labId) {
        this(labId, false);
    }
}
