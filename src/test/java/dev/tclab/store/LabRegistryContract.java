package dev.tclab.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabRecord;
import dev.tclab.lab.LabRegistry;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the lab registry must do on every supported database: run on H2 ({@link H2LabRegistryTest}) and on a real
 * PostgreSQL ({@link PostgresLabRegistryIT}). Each test uses labs of its own.
 */
abstract class LabRegistryContract {

    private static final Instant CREATED = Instant.parse("2026-12-01T09:00:00.123456Z");

    @Inject
    LabRegistry registry;

    private static LabRecord record(String id, LabPhase phase, long version, String reason) {
        return new LabRecord(
                id,
                "l-ann",
                "tbf-basics",
                Map.of("rate", "7mbit", "burst", "32kb"),
                phase,
                CREATED,
                phase == LabPhase.STARTING ? null : CREATED.plusSeconds(1),
                CREATED.plusSeconds(60),
                phase.live() ? null : CREATED.plusSeconds(90),
                reason,
                version);
    }

    private static String fresh() {
        return UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    private Optional<LabRecord> live(String id) {
        return registry.live().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    @Test
    void shouldBeTheDatabaseRegistry() {
        assertThat(registry).isInstanceOf(JdbcLabRegistry.class);
    }

    @Test
    void shouldHandAPooledLabToExactlyOneOfTwoClaimsRacing() throws Exception {
        String id = fresh();
        LabRecord pooled = new LabRecord(
                id,
                null,
                "tbf-basics",
                Map.of(),
                LabPhase.RUNNING,
                CREATED,
                CREATED.plusSeconds(1),
                CREATED,
                null,
                null,
                1);
        registry.save(pooled);
        assertThat(live(id)).hasValueSatisfying(r -> assertThat(r.owner()).isNull());
        Instant claimedAt = CREATED.plusSeconds(600);
        CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Future<Boolean>> claims = Stream.of("l-ann", "l-bob")
                    .map(owner -> two.submit(() -> {
                        go.await();
                        return registry.claim(new LabRecord(
                                id,
                                owner,
                                "tbf-basics",
                                Map.of("rate", owner),
                                LabPhase.RUNNING,
                                claimedAt,
                                claimedAt,
                                claimedAt,
                                null,
                                null,
                                2));
                    }))
                    .toList();
            go.countDown();
            boolean ann = claims.get(0).get();
            boolean bob = claims.get(1).get();
            assertThat(ann ^ bob)
                    .as("exactly one claim wins (ann %s, bob %s)", ann, bob)
                    .isTrue();
            String winner = ann ? "l-ann" : "l-bob";
            assertThat(live(id))
                    .contains(new LabRecord(
                            id,
                            winner,
                            "tbf-basics",
                            Map.of("rate", winner),
                            LabPhase.RUNNING,
                            claimedAt,
                            claimedAt,
                            claimedAt,
                            null,
                            null,
                            2));
        } finally {
            two.shutdownNow();
        }
        assertThat(registry.claim(new LabRecord(
                        id,
                        "l-cat",
                        "tbf-basics",
                        Map.of(),
                        LabPhase.RUNNING,
                        claimedAt,
                        claimedAt,
                        claimedAt,
                        null,
                        null,
                        3)))
                .as("an owned lab is never claimed again")
                .isFalse();
    }

    @Test
    void shouldHandEveryLearnerOfAClassPressingStartAtOnceTheirOwnPooledLab() throws Exception {
        int size = 30;
        List<String> ids =
                Stream.generate(LabRegistryContract::fresh).limit(size).toList();
        for (String id : ids) {
            registry.save(new LabRecord(
                    id,
                    null,
                    "tbf-basics",
                    Map.of(),
                    LabPhase.RUNNING,
                    CREATED,
                    CREATED.plusSeconds(1),
                    CREATED,
                    null,
                    null,
                    1));
        }
        Instant claimedAt = CREATED.plusSeconds(600);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService learners = Executors.newFixedThreadPool(size);
        try {
            List<Future<Boolean>> claims = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                LabRecord claim = new LabRecord(
                        ids.get(i),
                        "l-" + ids.get(i),
                        "tbf-basics",
                        Map.of(),
                        LabPhase.RUNNING,
                        claimedAt,
                        claimedAt,
                        claimedAt,
                        null,
                        null,
                        2);
                claims.add(learners.submit(() -> {
                    go.await();
                    return registry.claim(claim);
                }));
            }
            go.countDown();
            for (Future<Boolean> claim : claims) {
                assertThat(claim.get()).isTrue();
            }
        } finally {
            learners.shutdownNow();
        }
        for (String id : ids) {
            assertThat(registry.find(id)).map(LabRecord::owner).contains("l-" + id);
        }
    }

    @Test
    void shouldNotHandOutAPooledLabThatEnded() {
        String id = fresh();
        registry.save(new LabRecord(
                id,
                null,
                "tbf-basics",
                Map.of(),
                LabPhase.STOPPED,
                CREATED,
                CREATED,
                CREATED,
                CREATED.plusSeconds(5),
                "Stopped: the pool keeps fewer labs of this lesson now.",
                2));
        assertThat(registry.claim(new LabRecord(
                        id,
                        "l-ann",
                        "tbf-basics",
                        Map.of(),
                        LabPhase.RUNNING,
                        CREATED,
                        CREATED,
                        CREATED,
                        null,
                        null,
                        3)))
                .isFalse();
    }

    @Test
    void shouldFindOneLabInAnyPhaseAndTheLiveLabsOfOneLearner() {
        String running = fresh();
        String stopped = fresh();
        String owner = "l-" + fresh();
        registry.save(withOwner(record(running, LabPhase.RUNNING, 1, null), owner));
        registry.save(withOwner(record(stopped, LabPhase.STOPPED, 2, "Stopped by the learner."), owner));
        assertThat(registry.find(stopped)).map(LabRecord::reason).contains("Stopped by the learner.");
        assertThat(registry.find(fresh())).isEmpty();
        assertThat(registry.liveOf(java.util.List.of(owner, "l-nobody")))
                .extracting(LabRecord::id)
                .containsExactly(running);
    }

    @Test
    void shouldMoveTheLastUseOnlyForwardWithoutChangingTheVersion() {
        String id = fresh();
        registry.save(record(id, LabPhase.RUNNING, 4, null));
        Instant later = CREATED.plusSeconds(600);
        registry.seen(id, later);
        registry.seen(id, CREATED.plusSeconds(120));
        LabRecord kept = registry.find(id).orElseThrow();
        assertThat(kept.lastActivity()).isEqualTo(later);
        assertThat(kept.version()).isEqualTo(4);
    }

    private static LabRecord withOwner(LabRecord r, String owner) {
        return new LabRecord(
                r.id(),
                owner,
                r.lesson(),
                r.parameters(),
                r.phase(),
                r.createdAt(),
                r.readyAt(),
                r.lastActivity(),
                r.endedAt(),
                r.reason(),
                r.version());
    }

    @Test
    void shouldKeepEveryFieldOfALiveLab() {
        String id = fresh();
        LabRecord running = record(id, LabPhase.RUNNING, 1, null);
        registry.save(running);
        assertThat(live(id)).contains(running);
    }

    @Test
    void shouldListQueuedStartsOldestFirstAndLetExactlyOneServerTakeOneFromTheQueue() {
        String later = fresh();
        String earlier = fresh();
        registry.save(new LabRecord(
                later,
                "l-ann",
                "tbf-basics",
                Map.of(),
                LabPhase.QUEUED,
                CREATED.plusSeconds(5),
                null,
                CREATED,
                null,
                null,
                0,
                "192.0.2.7"));
        registry.save(new LabRecord(
                earlier,
                "l-bob",
                "tbf-basics",
                Map.of(),
                LabPhase.QUEUED,
                CREATED,
                null,
                CREATED,
                null,
                null,
                0,
                null));
        List<String> queued = registry.queued().stream()
                .map(LabRecord::id)
                .filter(id -> id.equals(later) || id.equals(earlier))
                .toList();
        assertThat(queued).containsExactly(earlier, later);
        assertThat(registry.live()).extracting(LabRecord::id).doesNotContain(earlier, later);

        LabRecord starting = new LabRecord(
                earlier, "l-bob", "tbf-basics", Map.of(), LabPhase.STARTING, CREATED, null, CREATED, null, null, 1);
        assertThat(registry.leaveQueue(starting)).isTrue();
        assertThat(registry.leaveQueue(starting))
                .as("it left the queue already")
                .isFalse();
        assertThat(live(earlier)).map(LabRecord::phase).contains(LabPhase.STARTING);
        registry.save(new LabRecord(
                later,
                "l-ann",
                "tbf-basics",
                Map.of(),
                LabPhase.STOPPED,
                CREATED.plusSeconds(5),
                null,
                CREATED,
                CREATED.plusSeconds(9),
                "Stopped by the learner.",
                1));
        assertThat(registry.leaveQueue(new LabRecord(
                        later,
                        "l-ann",
                        "tbf-basics",
                        Map.of(),
                        LabPhase.STARTING,
                        CREATED.plusSeconds(5),
                        null,
                        CREATED,
                        null,
                        null,
                        1)))
                .as("stopped while it waited")
                .isFalse();
        assertThat(registry.leaveQueue(new LabRecord(
                        fresh(),
                        "l-ann",
                        "tbf-basics",
                        Map.of(),
                        LabPhase.STARTING,
                        CREATED,
                        null,
                        CREATED,
                        null,
                        null,
                        1)))
                .as("never recorded")
                .isFalse();
        assertThat(registry.queued()).extracting(LabRecord::id).doesNotContain(earlier, later);
    }

    @Test
    void shouldKeepTheQuotaClientOfALiveLabAndForgetItOnceTheLabEnded() {
        String id = fresh();
        LabRecord starting = withClient(record(id, LabPhase.STARTING, 1, null), "2001:db8:1:2::/64");
        registry.save(starting);
        assertThat(registry.find(id)).contains(starting);
        LabRecord running = withClient(record(id, LabPhase.RUNNING, 2, null), "2001:db8:1:2::/64");
        registry.save(running);
        assertThat(live(id)).contains(running);
        registry.save(withClient(record(id, LabPhase.STOPPED, 3, "Stopped by the learner."), "2001:db8:1:2::/64"));
        assertThat(registry.find(id))
                .hasValueSatisfying(r -> assertThat(r.client()).isNull());

        String forwarded = fresh();
        registry.save(withClient(record(forwarded, LabPhase.RUNNING, 1, null), "y".repeat(500)));
        assertThat(live(forwarded))
                .hasValueSatisfying(r -> assertThat(r.client()).isEqualTo("y".repeat(100)));
    }

    private static LabRecord withClient(LabRecord r, String client) {
        return new LabRecord(
                r.id(),
                r.owner(),
                r.lesson(),
                r.parameters(),
                r.phase(),
                r.createdAt(),
                r.readyAt(),
                r.lastActivity(),
                r.endedAt(),
                r.reason(),
                r.version(),
                client);
    }

    @Test
    void shouldKeepTheNewestVersionWhateverOrderWritesArriveIn() {
        String id = fresh();
        registry.save(record(id, LabPhase.STARTING, 0, null));
        registry.save(record(id, LabPhase.STOPPED, 2, "Stopped by the learner."));
        registry.save(record(id, LabPhase.RUNNING, 1, null));
        assertThat(live(id))
                .as("a stop must not be undone by a late 'running' write")
                .isEmpty();

        String other = fresh();
        registry.save(record(other, LabPhase.RUNNING, 5, null));
        registry.save(record(other, LabPhase.STARTING, 0, null));
        assertThat(live(other)).map(LabRecord::phase).contains(LabPhase.RUNNING);
    }

    @Test
    void shouldCutAnOverlongReasonInsteadOfRefusingTheWrite() {
        String id = fresh();
        registry.save(record(id, LabPhase.RUNNING, 1, null));
        registry.save(record(id, LabPhase.FAILED, 2, "x".repeat(5000)));
        registry.save(record(id, LabPhase.RUNNING, 1, null));
        assertThat(live(id)).isEmpty();
    }

    @Test
    void shouldKeepTimesToTheMicrosecond() {
        String id = fresh();
        Instant nanos = Instant.parse("2026-12-01T09:00:00.123456789Z");
        registry.save(new LabRecord(
                id, "l-bob", "tbf-basics", Map.of(), LabPhase.RUNNING, nanos, nanos, nanos, null, null, 1));
        assertThat(live(id)).map(LabRecord::createdAt).contains(nanos.truncatedTo(ChronoUnit.MICROS));
    }
}
