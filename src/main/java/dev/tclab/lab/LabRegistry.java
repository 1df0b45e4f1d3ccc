package dev.tclab.lab;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Where the lab records live, so that labs outlive the server process. Calls block (a database): call them from
 * worker threads, never from the Vert.x event loop.
 */
public interface LabRegistry {

    /** Inserts the record, or replaces the kept one when this one is newer (higher version). */
    void save(LabRecord record);

    /**
     * Hands a pooled lab (kept with no owner) to its learner in one atomic statement: writes {@code claimed}'s owner,
     * parameters, times and version where the lab is running and still has no owner. True when this call took it;
     * false when someone had already claimed it (another server of the same database) or it no longer runs.
     */
    boolean claim(LabRecord claimed);

    /** Every record whose phase is STARTING or RUNNING (pooled ones have no owner). */
    List<LabRecord> live();

    /** Every record whose phase is QUEUED, oldest first: the start queue as it was acknowledged. */
    List<LabRecord> queued();

    /**
     * Takes a lab out of the start queue in one atomic statement: writes {@code starting}'s phase and version where
     * the lab is still QUEUED. True when this call took it; false when it had left the queue already (started by
     * another server of the same database, or stopped) or was never recorded.
     */
    boolean leaveQueue(LabRecord starting);

    /** The record of one lab, in any phase; empty when none is kept. */
    Optional<LabRecord> find(String labId);

    /** Every record of these learners whose phase is STARTING or RUNNING. */
    List<LabRecord> liveOf(Collection<String> owners);

    /**
     * Notes that a replica saw the lab used or open at {@code at}; the kept time only moves forward, and no version
     * changes. So every replica culls a lab by the latest use any replica saw.
     */
    void seen(String labId, Instant at);
}
