package dev.tclab.runtime;

/** Receives the stages of a lab start, in order: creating, wiring, configuring, ready. */
@FunctionalInterface
public interface LabProgressListener {

    enum Stage {
        CREATING,
        WIRING,
        CONFIGURING,
        READY
    }

    void onStage(Stage stage, String detail);
}
