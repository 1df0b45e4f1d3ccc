package dev.tclab.workshop;

import dev.tclab.config.TclabConfig;
import dev.tclab.host.CurrentHost;
import dev.tclab.http.Quote;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/** Creating, changing, finding, joining, closing and reopening events, with every rule's refusal in plain words. Calls block. */
@ApplicationScoped
public class WorkshopService {

    static final int TITLE_MAX = 200;
    static final int NAME_MAX = 40;
    static final int LESSONS_MAX = 20;
    static final int SEATS_MAX = 500;
    static final int MESSAGE_MAX = 1000;
    /** The most unread messages to one learner a page shows (the latest). */
    static final int UNREAD_MAX = 20;

    private static final SecureRandom RANDOM = new SecureRandom();
    /** How refusals and the action log write a time: the server does not know the reader's zone, so UTC, said. */
    private static final DateTimeFormatter WHEN =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private final WorkshopStore store;
    private final LessonCatalog catalog;
    private final InstantSource clock;
    private final Event<EventChanged> changed;
    private final Event<PersonalMessagesChanged> personalChanged;
    /** The server's maximum lab lifetime, which bounds an event's. */
    private final Duration maxLifetime;

    public WorkshopService(
            WorkshopStore store,
            LessonCatalog catalog,
            TclabConfig config,
            Event<EventChanged> changed,
            Event<PersonalMessagesChanged> personalChanged,
            InstantSource clock) {
        this.store = store;
        this.changed = changed;
        this.personalChanged = personalChanged;
        this.catalog = catalog;
        this.maxLifetime = config.lab().maxLifetime();
        this.clock = clock;
    }

    public Instant now() {
        return clock.instant();
    }

    /** Checks the draft and keeps the event with a fresh join code. */
    public WorkshopEvent create(CurrentHost.Host host, EventDraft draft) {
        Settings settings = check(draft, 0);
        for (int attempt = 0; attempt < 5; attempt++) {
            WorkshopEvent event = settings.apply(new WorkshopEvent(
                    newId(),
                    host.name(),
                    "",
                    List.of(),
                    JoinCodes.next(),
                    Optional.empty(),
                    Optional.empty(),
                    0,
                    Duration.ZERO,
                    Duration.ZERO,
                    now(),
                    Optional.empty(),
                    0));
            if (store.create(event)) {
                return event;
            }
        }
        throw new IllegalStateException("five join codes in a row were taken: the code space is exhausted");
    }

    /**
     * Replaces the event's settings with the draft's (checked as a new event's, and the seat cap not below the
     * learners already seated), records what changed as a host action and tells its learners' pages. The join code,
     * seats and progress stay; new lab terms apply to labs started from now on.
     */
    public WorkshopEvent update(CurrentHost.Host host, WorkshopEvent event, EventDraft draft) {
        Settings settings = check(draft, seats(event.id()).size());
        WorkshopEvent changed = settings.apply(event);
        List<String> changes = Settings.changes(event, changed);
        if (!changes.isEmpty()) {
            store.update(changed);
            store.recordAction(event.id(), new HostAction(host.name(), "", "edit", String.join("; ", changes), now()));
            this.changed.fire(new EventChanged(event.id()));
        }
        return changed;
    }

    /**
     * Opens a closed event again, as before its host closed it; refused while its closing time is past (the host
     * sets a later one first).
     */
    public WorkshopEvent reopen(CurrentHost.Host host, WorkshopEvent event) {
        if (event.closesAt().map(c -> !c.isAfter(now())).orElse(false)) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.CONFLICT,
                    "\"" + event.title() + "\" closed at its closing time. Set a "
                            + "later closing time (Edit) to open it again.");
        }
        if (event.closedAt().isEmpty()) {
            return event;
        }
        WorkshopEvent open = new WorkshopEvent(
                event.id(),
                event.host(),
                event.title(),
                event.lessons(),
                event.joinCode(),
                event.opensAt(),
                event.closesAt(),
                event.seatCap(),
                event.idleTimeout(),
                event.lifetime(),
                event.createdAt(),
                Optional.empty(),
                event.pooledLabs());
        store.update(open);
        store.recordAction(event.id(), new HostAction(host.name(), "", "reopen", "the workshop is open again", now()));
        changed.fire(new EventChanged(event.id()));
        return open;
    }

    /** An event's settings as a host may set them, checked. */
    private record Settings(
            String title,
            List<String> lessons,
            Optional<Instant> opensAt,
            Optional<Instant> closesAt,
            int seats,
            Duration idle,
            Duration lifetime,
            int pooled) {

        WorkshopEvent apply(WorkshopEvent e) {
            return new WorkshopEvent(
                    e.id(),
                    e.host(),
                    title,
                    lessons,
                    e.joinCode(),
                    opensAt,
                    closesAt,
                    seats,
                    idle,
                    lifetime,
                    e.createdAt(),
                    e.closedAt(),
                    pooled);
        }

        /** What differs between two versions of an event, in words for the action log. */
        static List<String> changes(WorkshopEvent was, WorkshopEvent now) {
            List<String> changes = new ArrayList<>();
            change(changes, "title", was.title(), now.title());
            change(changes, "lessons", String.join(", ", was.lessons()), String.join(", ", now.lessons()));
            change(
                    changes,
                    "opens",
                    was.opensAt().map(WHEN::format).orElse("at once"),
                    now.opensAt().map(WHEN::format).orElse("at once"));
            change(
                    changes,
                    "closes",
                    was.closesAt().map(WHEN::format).orElse("when closed"),
                    now.closesAt().map(WHEN::format).orElse("when closed"));
            change(changes, "seat cap", was.seatCap(), now.seatCap());
            change(
                    changes,
                    "idle timeout (min)",
                    was.idleTimeout().toMinutes(),
                    now.idleTimeout().toMinutes());
            change(
                    changes,
                    "lab lifetime (min)",
                    was.lifetime().toMinutes(),
                    now.lifetime().toMinutes());
            change(changes, "labs kept ready", was.pooledLabs(), now.pooledLabs());
            return changes;
        }

        private static void change(List<String> changes, String what, Object was, Object now) {
            if (!was.equals(now)) {
                changes.add(what + ": " + was + " \u2192 " + now);
            }
        }
    }

    /** The draft's settings, or a refusal naming every problem; {@code seated}: learners the cap must still hold. */
    private Settings check(EventDraft draft, int seated) {
        if (draft == null) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.INVALID, "Send the workshop as JSON: title, lessons, seatCap...");
        }
        List<String> problems = new ArrayList<>();
        String title = draft.title() == null ? "" : draft.title().strip();
        if (title.isEmpty() || title.length() > TITLE_MAX) {
            problems.add("Give the workshop a title of 1 to " + TITLE_MAX + " characters.");
        }
        List<String> lessons = draft.lessons() == null
                ? List.of()
                : draft.lessons().stream().map(String::strip).toList();
        if (lessons.isEmpty() || lessons.size() > LESSONS_MAX) {
            problems.add("Choose 1 to " + LESSONS_MAX + " lessons, in the order the class takes them.");
        }
        for (String slug : lessons) {
            Optional<Lesson> lesson = catalog.lesson(slug);
            if (lesson.isEmpty() || lesson.get().broken()) {
                problems.add("There is no working lesson " + Quote.of(slug) + "; pick one from the lesson list.");
            }
        }
        if (lessons.stream().distinct().count() != lessons.size()) {
            problems.add("Each lesson may appear once.");
        }
        int seats = draft.seatCap() == null ? 30 : draft.seatCap();
        if (seats < 1 || seats > SEATS_MAX) {
            problems.add("The seat cap must be 1 to " + SEATS_MAX + ".");
        } else if (seats < seated) {
            problems.add(seated + " learners have joined already, so the seat cap must be at least " + seated + ".");
        }
        int idle = draft.idleTimeoutMinutes() == null ? 45 : draft.idleTimeoutMinutes();
        if (idle < 5 || idle > 24 * 60) {
            problems.add("The idle timeout must be 5 to 1440 minutes.");
        }
        int lifetime = draft.lifetimeMinutes() == null
                ? (int) Math.min(240, maxLifetime.toMinutes())
                : draft.lifetimeMinutes();
        if (lifetime < 15 || lifetime > maxLifetime.toMinutes()) {
            problems.add("The lab lifetime must be 15 to " + maxLifetime.toMinutes() + " minutes (this server stops "
                    + "every lab after " + maxLifetime.toMinutes() + " minutes: tclab.lab.max-lifetime).");
        }
        int pooled = draft.pooledLabs() == null ? 0 : draft.pooledLabs();
        if (pooled < 0 || pooled > seats) {
            problems.add("The labs kept ready must be 0 to the seat cap.");
        }
        if (draft.opensAt() != null
                && draft.closesAt() != null
                && !draft.closesAt().isAfter(draft.opensAt())) {
            problems.add("The closing time must come after the opening time.");
        }
        if (draft.closesAt() != null && !draft.closesAt().isAfter(now())) {
            problems.add("The closing time is already past.");
        }
        if (!problems.isEmpty()) {
            throw new WorkshopRefusal(WorkshopRefusal.Kind.INVALID, String.join(" ", problems));
        }
        return new Settings(
                title,
                lessons,
                Optional.ofNullable(draft.opensAt()),
                Optional.ofNullable(draft.closesAt()),
                seats,
                Duration.ofMinutes(idle),
                Duration.ofMinutes(lifetime),
                pooled);
    }

    /** The host's events (an admin's: everyone's), newest first. */
    public List<WorkshopEvent> events(CurrentHost.Host host) {
        return store.events(host.admin() ? null : host.name());
    }

    /** The event, if it is this host's (or the host is an admin); any other answers 404, as if it did not exist. */
    public WorkshopEvent eventFor(CurrentHost.Host host, String eventId) {
        return store.find(eventId)
                .filter(e -> host.admin() || e.host().equals(host.name()))
                .orElseThrow(() -> WorkshopRefusal.notFound(eventId));
    }

    /** Finds the event of a typed code, refusing one that does not exist, has not opened, or has closed. */
    public WorkshopEvent openEvent(String typedCode) {
        String code = JoinCodes.normalise(typedCode);
        WorkshopEvent event = (code.isEmpty() || code.length() > 12
                        ? Optional.<WorkshopEvent>empty()
                        : store.findByCode(code))
                .orElseThrow(
                        () -> new WorkshopRefusal(
                                WorkshopRefusal.Kind.NOT_FOUND,
                                "No workshop has the code " + (code.isEmpty() ? "you typed" : code)
                                        + ". Check the code on the projector (letters and digits, no O, I, L, 0 or 1) and try again."));
        Instant now = now();
        switch (event.status(now)) {
            case "scheduled" ->
                throw new WorkshopRefusal(
                        WorkshopRefusal.Kind.CONFLICT,
                        "\"" + event.title() + "\" opens at "
                                + WHEN.format(event.opensAt().orElseThrow()) + ". Come back then, or ask your host.");
            case "closed" ->
                throw new WorkshopRefusal(
                        WorkshopRefusal.Kind.GONE,
                        "\"" + event.title()
                                + "\" is closed, so nobody can join it any more. The lessons stay open to read at /.");
            default -> {
                return event;
            }
        }
    }

    /** Seats the learner under a display name; joining again returns the seat they have. */
    public Seat join(String typedCode, String learnerId, String displayName) {
        WorkshopEvent event = openEvent(typedCode);
        String name = displayName == null ? "" : displayName.strip().replaceAll("\\s+", " ");
        if (name.isEmpty() || name.length() > NAME_MAX || name.chars().anyMatch(Character::isISOControl)) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.INVALID,
                    "Type the name your host will see: 1 to " + NAME_MAX + " characters.");
        }
        switch (store.join(event.id(), learnerId, name, event.seatCap(), now())) {
            case NAME_TAKEN ->
                throw new WorkshopRefusal(
                        WorkshopRefusal.Kind.CONFLICT,
                        "Someone in \"" + event.title() + "\" already uses the name " + name
                                + ". Add an initial or pick another name.");
            case FULL ->
                throw new WorkshopRefusal(
                        WorkshopRefusal.Kind.CONFLICT,
                        "\"" + event.title() + "\" is full (all " + event.seatCap()
                                + " seats are taken). Ask your host to raise the seat cap.");
            default -> {
                return store.seats(event.id()).stream()
                        .filter(s -> s.learnerId().equals(learnerId))
                        .findFirst()
                        .orElseThrow();
            }
        }
    }

    /** The learner's current event seat, if they joined one. */
    public Optional<Seat> seatOf(String learnerId) {
        return store.latestSeat(learnerId);
    }

    public Optional<WorkshopEvent> find(String eventId) {
        return store.find(eventId);
    }

    public List<Seat> seats(String eventId) {
        return store.seats(eventId);
    }

    public void broadcast(WorkshopEvent event, String text) {
        store.broadcast(event.id(), checkedMessage(text), now());
        changed.fire(new EventChanged(event.id()));
    }

    /** A host's message, stripped, or refused when empty or too long. */
    public String checkedMessage(String text) {
        String message = text == null ? "" : text.strip();
        if (message.isEmpty() || message.length() > MESSAGE_MAX) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.INVALID, "A message has 1 to " + MESSAGE_MAX + " characters.");
        }
        return message;
    }

    /**
     * Keeps a host's message to one seated learner: their open pages show it at once, and every page they open
     * shows it again until they mark it read.
     */
    public void message(WorkshopEvent event, Seat seat, String text) {
        store.message(event.id(), seat.learnerId(), checkedMessage(text), now());
        personalChanged.fire(new PersonalMessagesChanged(event.id(), seat.learnerId()));
    }

    /** The learner read a message from their host: no page of theirs shows it any more. */
    public void markRead(String learnerId, long messageId) {
        Seat seat = seatOf(learnerId)
                .orElseThrow(() -> new WorkshopRefusal(
                        WorkshopRefusal.Kind.NOT_FOUND,
                        "You are in no workshop, so there is no message from a host to mark read."));
        if (!store.markRead(seat.eventId(), learnerId, messageId, now())) {
            throw new WorkshopRefusal(
                    WorkshopRefusal.Kind.NOT_FOUND,
                    "You have no unread message " + messageId
                            + " from your host; it may be marked read already (on another page of yours).");
        }
        personalChanged.fire(new PersonalMessagesChanged(seat.eventId(), learnerId));
    }

    public List<Broadcast> broadcasts(String eventId) {
        return store.broadcasts(eventId, 20);
    }

    /** The event as its learner sees it, with its latest broadcasts and the learner's unread messages. */
    public LearnersEvent learnersView(Seat seat, WorkshopEvent event) {
        return learnersView(seat, event, broadcasts(event.id()));
    }

    /** The event as its learner sees it, with {@code messages} read once for the whole class. */
    public LearnersEvent learnersView(Seat seat, WorkshopEvent event, List<Broadcast> messages) {
        Instant now = now();
        return new LearnersEvent(
                event.id(),
                event.title(),
                seat.displayName(),
                event.lessons(),
                event.status(now),
                event.opensAt().orElse(null),
                event.end().orElse(null),
                event.closedAt().orElse(null),
                now,
                messages,
                store.unread(event.id(), seat.learnerId(), UNREAD_MAX));
    }

    public void close(WorkshopEvent event) {
        store.close(event.id(), now());
        changed.fire(new EventChanged(event.id()));
    }

    public void record(WorkshopEvent event, HostAction action) {
        store.recordAction(event.id(), action);
    }

    public List<HostAction> actions(String eventId) {
        return store.actions(eventId, 200);
    }

    private static String newId() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return "e" + HexFormat.of().formatHex(bytes);
    }
}
