package dev.tclab.lab;

import java.time.Instant;
import java.util.Optional;

/**
 * Terms other than the server's for some labs (a workshop event's idle timeout and lifetime for its learners'
 * labs). Asked when a lab is created and when a recorded lab is adopted after a restart; may block (the database).
 * The server's maximum lifetime still bounds what a source gives.
 */
public interface LabTermsSource {

    /** The terms of {@code owner}'s lab of {@code lesson} created at {@code createdAt}; empty: the server's. */
    Optional<LabTerms> termsFor(String owner, String lesson, Instant createdAt);
}
