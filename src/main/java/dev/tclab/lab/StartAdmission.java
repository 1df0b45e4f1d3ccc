package dev.tclab.lab;

/**
 * Decides whether a new lab may start, called by {@link LabService} under its lock just before the lab is created
 * (not when the learner's lab for the lesson already exists), so concurrent starts cannot all slip past a limit.
 */
@FunctionalInterface
public interface StartAdmission {

    /** Admits {@code lab}, or refuses it with the reason and what to do. */
    void admit(Lab lab) throws QuotaExceededException;
}
