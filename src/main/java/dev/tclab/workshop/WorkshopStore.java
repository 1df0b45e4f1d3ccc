package dev.tclab.workshop;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where events, seats, broadcasts, messages to one learner and host actions are kept (the database). Calls block. */
public interface WorkshopStore {

    /** How a join went. */
    enum JoinOutcome {
        JOINED,
        ALREADY_SEATED,
        NAME_TAKEN,
        FULL
    }

    /** Keeps a new event; false when its join code is taken (nothing kept). */
    boolean create(WorkshopEvent event);

    Optional<WorkshopEvent> find(String id);

    Optional<WorkshopEvent> findByCode(String joinCode);

    /** Events of one host, newest first; all hosts' when {@code host} is null. */
    List<WorkshopEvent> events(String host);

    /** Replaces the kept event's settings and closing mark with {@code event}'s (same id; join code and creation kept). */
    void update(WorkshopEvent event);

    /** Marks the event closed at {@code at} (kept once: a second close keeps the first time). */
    void close(String id, Instant at);

    /**
     * Seats a learner atomically against the seat cap and the names taken. A learner already seated keeps their seat
     * (and name).
     */
    JoinOutcome join(String eventId, String learnerId, String displayName, int seatCap, Instant at);

    List<Seat> seats(String eventId);

    /** The learner's seat in their most recently joined event, if any. */
    Optional<Seat> latestSeat(String learnerId);

    void broadcast(String eventId, String text, Instant at);

    /** The event's broadcasts, oldest first, at most the latest {@code limit}. */
    List<Broadcast> broadcasts(String eventId, int limit);

    /** Keeps a host's message to one learner of the event, unread. */
    void message(String eventId, String learnerId, String text, Instant at);

    /** The learner's unread messages of the event, oldest first, at most the latest {@code limit}. */
    List<PersonalMessage> unread(String eventId, String learnerId, int limit);

    /** Marks the learner's message read; false when they have no unread message of that id in the event. */
    boolean markRead(String eventId, String learnerId, long messageId, Instant at);

    void recordAction(String eventId, HostAction action);

    /** The event's host actions, newest first, at most {@code limit}. */
    List<HostAction> actions(String eventId, int limit);
}
