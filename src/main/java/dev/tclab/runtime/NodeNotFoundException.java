package dev.tclab.runtime;

import dev.tclab.http.Quote;

/** The lab or node is not running (never started, stopped, or its container died). */
public class NodeNotFoundException extends Exception {

    public NodeNotFoundException(String labId, String node) {
        super("node " + Quote.of(node) + " of lab " + Quote.of(labId) + " is not running");
    }
}
