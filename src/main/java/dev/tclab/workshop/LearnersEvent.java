package dev.tclab.workshop;

import java.time.Instant;
import java.util.List;

/**
 * A learner's workshop as their pages show it: its name, their display name, the host's latest messages to the
 * class, the host's messages to this learner they have not marked read yet ({@code personal}), when it opens and
 * ends, and when the host closed it early (null if they did not); {@code now} is the server's clock, so a page counts
 * the time left right whatever its own clock says.
 */
public record LearnersEvent(
        String eventId,
        String title,
        String displayName,
        List<String> lessons,
        String status,
        Instant opensAt,
        Instant endsAt,
        Instant closedAt,
        Instant now,
        List<Broadcast> messages,
        List<PersonalMessage> personal) {}
