package dev.tclab.runtime;

/**
 * A lab's raised share of the host's CPUs while its check measures ({@link LabRuntime#raiseCpuPriority}); closing it
 * gives the lab back its share at rest.
 */
public interface CpuPriority extends AutoCloseable {

    /** For a runtime that cannot weigh its labs' CPU. */
    CpuPriority NONE = () -> {};

    @Override
    void close();
}
