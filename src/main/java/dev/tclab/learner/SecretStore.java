package dev.tclab.learner;

import java.util.function.Supplier;

/** Secrets the app makes once and keeps (in its database), shared by restarts and by replicas. */
public interface SecretStore {

    /** The secret kept under {@code name}; when there is none, {@code fresh} makes it and it is kept first. */
    String getOrCreate(String name, Supplier<String> fresh);
}
