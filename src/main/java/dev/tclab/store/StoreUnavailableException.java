package dev.tclab.store;

/**
 * The database did not answer or refused a statement, so nothing was saved or read. The API answers 503 with this
 * message: the learner can retry, and nothing was acknowledged that is not stored.
 */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
