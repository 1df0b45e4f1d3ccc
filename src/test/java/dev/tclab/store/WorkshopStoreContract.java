package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.host.HostAccount;
import dev.tclab.host.HostAccounts;
import dev.tclab.quiz.QuizAttempt;
import dev.tclab.quiz.QuizResults;
import dev.tclab.workshop.HostAction;
import dev.tclab.workshop.PersonalMessage;
import dev.tclab.workshop.ProgressReader;
import dev.tclab.workshop.Seat;
import dev.tclab.workshop.WorkshopEvent;
import dev.tclab.workshop.WorkshopStore;
import dev.tclab.workshop.WorkshopStore.JoinOutcome;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every supported database must do with host accounts, events, seats, broadcasts and host actions: run on H2
 * ({@link H2WorkshopStoreTest}) and a real PostgreSQL ({@link PostgresWorkshopStoreIT}).
 */
abstract class WorkshopStoreContract {

    @Inject
    HostAccounts hosts;

    @Inject
    WorkshopStore store;

    @Inject
    ProgressReader progress;

    @Inject
    QuizResults quizzes;

    private static String fresh(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private WorkshopEvent event(int seats) {
        String host = fresh("h");
        hosts.add(new HostAccount(host, "$2a$12$abcdefghijklmnopqrstuuZ6pZ9wXk7bQ2m3n4o5p6q7r8s9t0u1v", false));
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        WorkshopEvent event = new WorkshopEvent(
                fresh("e"),
                host,
                "Class " + host,
                List.of("tbf-basics", "htb-rate-accuracy"),
                fresh("").substring(0, 6).toUpperCase(),
                Optional.of(now.minusSeconds(60)),
                Optional.of(now.plusSeconds(3600)),
                seats,
                Duration.ofMinutes(30),
                Duration.ofHours(3),
                now,
                Optional.empty(),
                0);
        assertThat(store.create(event)).isTrue();
        return event;
    }

    @Test
    void shouldKeepHostAccountsWithUniqueNames() {
        String name = fresh("h");
        assertThat(hosts.add(new HostAccount(name, "hash-1", true))).isTrue();
        assertThat(hosts.add(new HostAccount(name, "hash-2", false))).isFalse();
        assertThat(hosts.find(name)).contains(new HostAccount(name, "hash-1", true));
        assertThat(hosts.setPassword(name, "hash-3")).isTrue();
        assertThat(hosts.find(name).orElseThrow().passwordHash()).isEqualTo("hash-3");
        assertThat(hosts.setPassword(fresh("nobody"), "x")).isFalse();
        assertThat(hosts.count()).isPositive();
    }

    @Test
    void shouldKeepAnEventAsCreatedAndFindItByCode() {
        WorkshopEvent event = event(10);
        assertThat(store.find(event.id())).contains(event);
        assertThat(store.findByCode(event.joinCode())).contains(event);
        assertThat(store.events(event.host())).containsExactly(event);
        assertThat(store.events(null)).contains(event);
        WorkshopEvent sameCode = new WorkshopEvent(
                fresh("e"),
                event.host(),
                "t",
                List.of("x"),
                event.joinCode(),
                Optional.empty(),
                Optional.empty(),
                1,
                Duration.ofMinutes(5),
                Duration.ofMinutes(15),
                Instant.now(),
                Optional.empty(),
                0);
        assertThat(store.create(sameCode)).isFalse();
        // Opens in two days: its labs kept ready are not reserved in the pool of the app these tests share.
        WorkshopEvent later = new WorkshopEvent(
                fresh("e"),
                event.host(),
                "Later",
                List.of("tbf-basics"),
                fresh("").substring(0, 6).toUpperCase(),
                Optional.of(Instant.now().plus(Duration.ofDays(2)).truncatedTo(ChronoUnit.SECONDS)),
                Optional.empty(),
                20,
                Duration.ofMinutes(5),
                Duration.ofMinutes(15),
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                Optional.empty(),
                12);
        assertThat(store.create(later)).isTrue();
        assertThat(store.find(later.id())).contains(later);

        Instant closed = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        store.close(event.id(), closed);
        store.close(event.id(), closed.plusSeconds(60));
        assertThat(store.find(event.id()).orElseThrow().closedAt()).contains(closed);
    }

    @Test
    void shouldChangeAnEventsSettingsAndReopenIt() {
        WorkshopEvent event = event(2);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        store.close(event.id(), now);
        // Reopened for two days ahead: an open workshop's labs kept ready would be reserved in the pool of every app
        // that shares this database in the test JVM, and take its slots.
        Instant opens = now.plus(Duration.ofDays(2));
        WorkshopEvent changed = new WorkshopEvent(
                event.id(),
                event.host(),
                "Renamed",
                List.of("htb-rate-accuracy", "tbf-basics"),
                event.joinCode(),
                Optional.of(opens),
                Optional.of(opens.plusSeconds(7200)),
                12,
                Duration.ofMinutes(20),
                Duration.ofMinutes(90),
                event.createdAt(),
                Optional.empty(),
                3);
        store.update(changed);
        assertThat(store.find(event.id())).contains(changed);
        assertThat(store.findByCode(event.joinCode())).contains(changed);
        assertThat(store.join(event.id(), fresh("l"), "Ann", changed.seatCap(), now))
                .isEqualTo(JoinOutcome.JOINED);
    }

    @Test
    void shouldSeatLearnersUnderUniqueNamesUpToTheCap() {
        WorkshopEvent event = event(2);
        Instant now = Instant.now();
        String ann = fresh("l");
        assertThat(store.join(event.id(), ann, "Ann", 2, now)).isEqualTo(JoinOutcome.JOINED);
        assertThat(store.join(event.id(), ann, "Another name", 2, now)).isEqualTo(JoinOutcome.ALREADY_SEATED);
        assertThat(store.join(event.id(), fresh("l"), "ANN", 2, now)).isEqualTo(JoinOutcome.NAME_TAKEN);
        assertThat(store.join(event.id(), fresh("l"), "Bea", 2, now)).isEqualTo(JoinOutcome.JOINED);
        assertThat(store.join(event.id(), fresh("l"), "Cem", 2, now)).isEqualTo(JoinOutcome.FULL);
        assertThat(store.seats(event.id())).extracting(Seat::displayName).containsExactly("Ann", "Bea");
        assertThat(store.latestSeat(ann).orElseThrow().eventId()).isEqualTo(event.id());
        assertThat(store.latestSeat(fresh("l"))).isEmpty();
    }

    @Test
    void shouldNeverSeatMoreThanTheCapWhenManyJoinAtOnce() throws Exception {
        WorkshopEvent event = event(5);
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Future<JoinOutcome>> joins = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String name = "Learner " + i;
                joins.add(pool.submit(() -> store.join(event.id(), fresh("l"), name, 5, Instant.now())));
            }
            int joined = 0;
            for (Future<JoinOutcome> join : joins) {
                joined += join.get() == JoinOutcome.JOINED ? 1 : 0;
            }
            assertThat(joined).isEqualTo(5);
            assertThat(store.seats(event.id())).hasSize(5);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldKeepBroadcastsAndHostActionsInOrder() {
        WorkshopEvent event = event(3);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        store.broadcast(event.id(), "first", now);
        store.broadcast(event.id(), "second", now.plusSeconds(1));
        store.broadcast(event.id(), "third", now.plusSeconds(2));
        assertThat(store.broadcasts(event.id(), 2)).extracting(b -> b.text()).containsExactly("second", "third");
        HostAction stop = new HostAction(event.host(), "l1", "stop", "Ann's lab", now);
        HostAction reset = new HostAction(event.host(), "l2", "reset", "Bea's lab", now.plusSeconds(5));
        store.recordAction(event.id(), stop);
        store.recordAction(event.id(), reset);
        assertThat(store.actions(event.id(), 10)).containsExactly(reset, stop);
    }

    @Test
    void shouldKeepALearnersMessagesUntilTheyReadThem() {
        WorkshopEvent event = event(3);
        WorkshopEvent other = event(3);
        String ann = fresh("l");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        store.message(event.id(), ann, "Look at the modem's queue", now);
        store.message(event.id(), ann, "Try burst 16kb", now.plusSeconds(1));
        store.message(event.id(), fresh("l"), "Not for Ann", now);
        store.message(other.id(), ann, "Another workshop", now);
        List<PersonalMessage> unread = store.unread(event.id(), ann, 20);
        assertThat(unread)
                .extracting(PersonalMessage::text)
                .containsExactly("Look at the modem's queue", "Try burst 16kb");
        assertThat(unread.get(0).sentAt()).isEqualTo(now);
        assertThat(store.unread(event.id(), ann, 1))
                .extracting(PersonalMessage::text)
                .containsExactly("Try burst 16kb");

        assertThat(store.markRead(other.id(), ann, unread.get(0).id(), now))
                .as("another workshop's id")
                .isFalse();
        assertThat(store.markRead(event.id(), fresh("l"), unread.get(0).id(), now))
                .as("another learner")
                .isFalse();
        assertThat(store.markRead(event.id(), ann, unread.get(0).id(), now.plusSeconds(9)))
                .isTrue();
        assertThat(store.markRead(event.id(), ann, unread.get(0).id(), now.plusSeconds(9)))
                .as("read already")
                .isFalse();
        assertThat(store.unread(event.id(), ann, 20))
                .extracting(PersonalMessage::text)
                .containsExactly("Try burst 16kb");
        assertThat(store.unread(other.id(), ann, 20))
                .extracting(PersonalMessage::text)
                .containsExactly("Another workshop");
    }

    @Test
    void shouldReadTheClassesQuizProgressWithAttemptsAndFirstPassTimes() {
        String ann = fresh("l");
        quizzes.record(ann, "tbf-basics", new QuizAttempt("q1", List.of(0), false));
        quizzes.record(ann, "tbf-basics", new QuizAttempt("q1", List.of(1), true));
        quizzes.record(ann, "other-lesson", new QuizAttempt("q9", List.of(1), true));
        List<ProgressReader.QuizAnswers> answers = progress.quizzes(List.of(ann, fresh("l")), List.of("tbf-basics"));
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).attempts()).isEqualTo(2);
        assertThat(answers.get(0).latestCorrect()).isTrue();
        assertThat(answers.get(0).firstCorrectAt()).isNotNull();
    }
}
