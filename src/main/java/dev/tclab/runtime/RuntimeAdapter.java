package dev.tclab.runtime;

/**
 * What a runtime (Docker, Kubernetes, User-Mode Linux) implements: the calls on one lab and the calls on its engine.
 * The app injects {@link LabRuntime} or {@link LabEngine}, whichever it needs; both are the runtime
 * {@link RuntimeChoice} picked.
 */
public interface RuntimeAdapter extends LabRuntime, LabEngine {}
