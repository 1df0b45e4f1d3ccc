package dev.tclab.runtime;

/**
 * A running process started by {@link LabRuntime#stream} or {@link LabRuntime#shell}. Closing it ends the process's
 * stream.
 */
public interface ProcessStream extends AutoCloseable {

    /**
     * Queues bytes for the process's standard input. Never blocks: terminal keystrokes arrive on the event loop.
     * False when the bytes were dropped because the process has not read the last ~1 MiB queued for it.
     */
    boolean write(byte[] input);

    /** Resizes the pseudo-terminal (only for {@link LabRuntime#shell} processes). */
    void resize(int columns, int rows);

    /** Releases the stream and its threads; idempotent. */
    @Override
    void close();
}
