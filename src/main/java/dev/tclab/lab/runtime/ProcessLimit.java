package dev.tclab.lab.runtime;

/** When a node counts as at its process limit ({@link LabRuntime#atProcessLimit}), whoever counted its processes. */
public final class ProcessLimit {

    /**
     * How many processes short of its limit a node still counts as at it: a shell bomb's processes end and fork again
     * all the time, so a count taken at any instant may fall a few short.
     */
    static final int SLACK = 8;

    private ProcessLimit() {}

    /** Whether {@code running} processes are at the node's {@code limit}, less {@link #SLACK}; no limit is never. */
    public static boolean reached(long running, long limit) {
        return limit > 0 && running >= limit - SLACK;
    }
}
