/**
 * Workshop hosts: accounts with bcrypt-hashed passwords (kept by a {@link dev.tclab.host.HostAccounts} store), the
 * sign-in that issues a signed, expiring {@code tclab_host} cookie, and the Quarkus Security mechanism that turns
 * that cookie into an identity with the role {@code host} (and {@code admin} where granted) on host routes only.
 * Everywhere else the same browser stays a learner.
 */
package dev.tclab.host;
