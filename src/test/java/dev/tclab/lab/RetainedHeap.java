package dev.tclab.lab;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The heap the app keeps after a full collection: what a flood left behind, as opposed to garbage it made on the
 * way. Several collections, because one may leave objects that a finalizer or a reference queue still holds.
 */
public final class RetainedHeap {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private RetainedHeap() {}

    /** Bytes used on the heap after full collections. */
    public static long bytes() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            MEMORY.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            least = Math.min(least, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    public static long mib(long bytes) {
        return bytes >> 20;
    }
}
