package dev.tclab.host;

import java.util.Optional;

/** Where host accounts are kept (the database). Calls block: never from the event loop. */
public interface HostAccounts {

    /** Adds an account; false when the name is taken (nothing changed). */
    boolean add(HostAccount account);

    /** Replaces an existing account's password hash and ends its open sessions; false when there is no such account. */
    boolean setPassword(String name, String passwordHash);

    Optional<HostAccount> find(String name);

    /** How many host accounts there are. */
    int count();
}
