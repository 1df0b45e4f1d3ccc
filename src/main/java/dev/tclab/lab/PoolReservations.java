package dev.tclab.lab;

import java.util.Map;

/**
 * Labs to keep in the warm pool beyond {@code tclab.pool}, such as a workshop's reserved labs for its first lesson.
 * Asked at every refill of the pool (from worker threads: it may read a database).
 */
public interface PoolReservations {

    /** Lesson slug to the number of labs reserved for it now; what is not listed reserves none. */
    Map<String, Integer> reservedLabs();
}
