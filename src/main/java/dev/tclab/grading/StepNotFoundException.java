package dev.tclab.grading;

/** The lab's lesson has no such step (or the step has no checks). */
public class StepNotFoundException extends Exception {

    public StepNotFoundException(String message) {
        super(message);
    }
}
