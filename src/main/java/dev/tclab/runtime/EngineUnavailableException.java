package dev.tclab.runtime;

/** The container engine could not be reached; the message says which endpoint and what to check. */
public class EngineUnavailableException extends Exception {

    public EngineUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
