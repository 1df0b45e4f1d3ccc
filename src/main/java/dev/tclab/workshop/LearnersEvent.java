package dev.tclab.workshop;

import java.time.Instant;
import java.util.List;

/**
 * A learner's workshop as their pages show it: its name, their display name, the host's latest messages and when
 * it ends; {@code now} is the server's clock, so a page counts the time left right whatever its own clock says.
 */
public record LearnersEvent(String eventId, String title, String displayName, List<String> lessons, String status,
                            Instant endsAt, Instant now, List<Broadcast> messages) {
}
