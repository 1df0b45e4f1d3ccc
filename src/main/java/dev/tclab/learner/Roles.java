package dev.tclab.learner;

/**
 * The roles a {@link io.quarkus.security.identity.SecurityIdentity} of tclab can hold. Every visitor is a
 * {@link #LEARNER}; {@link #HOST} (runs a workshop) and {@link #ADMIN} (sees every workshop) are granted by a host
 * sign-in, which is another mechanism producing another identity.
 */
public final class Roles {

    public static final String LEARNER = "learner";
    public static final String HOST = "host";
    public static final String ADMIN = "admin";

    private Roles() {}
}
