package dev.tclab.lab;

import java.util.List;

/**
 * Where the lab records live, so that labs outlive the server process. Calls block (a database): call them from
 * worker threads, never from the Vert.x event loop.
 */
public interface LabRegistry {

    /** Inserts the record, or replaces the kept one when this one is newer (higher version). */
    void save(LabRecord record);

    /** Every record whose phase is STARTING or RUNNING. */
    List<LabRecord> live();
}
