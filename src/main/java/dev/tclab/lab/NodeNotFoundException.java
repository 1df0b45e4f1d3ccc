package dev.tclab.lab;

/** The lab or node is not running (never started, stopped, or its container died). */
public class NodeNotFoundException extends Exception {

    public NodeNotFoundException(String labId, String node) {
        super("node '" + node + "' of lab " + labId + " is not running");
    }
}
