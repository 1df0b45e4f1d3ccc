package dev.tclab.runtime;

/** When a node counts as at its process limit ({@link LabRuntime#atProcessLimit}), whoever counted its processes. */
public final class ProcessLimit {

    /**
     * How many processes short of its limit a node still counts as at it: a shell bomb's processes end and fork again
     * all the time, so a count taken at any instant may fall a few short.
     */
    static final int SLACK = 8;

    /**
     * Why a shell ended before it began, on a node at its process limit: the engine could not start it, since starting
     * a process in a node takes a slot of the node's own (Docker's runc: "read init-p: connection reset by peer").
     */
    public static final String NO_SHELL_STARTS = "This node has hit its process limit, so not even a new shell can "
            + "start in it: reset the lab, or kill processes from a terminal that is still open.";

    private ProcessLimit() {}

    /** Whether {@code running} processes are at the node's {@code limit}, less {@link #SLACK}; no limit is never. */
    public static boolean reached(long running, long limit) {
        return limit > 0 && running >= limit - SLACK;
    }
}
