package dev.tclab.stats;

/** Someone watching a node's statistics: in the app, a statistics WebSocket. Must not block. */
interface StatsViewer {

    /** A JSON frame (a sample or a notice), shared by every viewer of the node. */
    void send(String json);

    /** The node is gone for good (its lab stopped); {@code message} is for the learner. */
    void gone(String message);
}
