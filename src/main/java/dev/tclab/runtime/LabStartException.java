package dev.tclab.runtime;

/** A lab could not be started; the message names the node and step that failed, and what the engine said. */
public class LabStartException extends Exception {

    public LabStartException(String message) {
        super(message);
    }

    public LabStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
