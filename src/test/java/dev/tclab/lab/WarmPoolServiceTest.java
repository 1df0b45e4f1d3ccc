package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.runtime.topology.TopologySource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The warm pool above the runtime: hand-out on Start, claims racing, refill within the server's maximum, pooled
 * labs giving up their slot to learners, and a claimed lab's clocks counted from the claim.
 */
@QuarkusTest
@TestProfile(WarmPoolServiceTest.Pooled.class)
class WarmPoolServiceTest {

    /** How long Starts must be quiet before the pool refills (the default is 3 s). */
    private static final Duration QUIET = Duration.ofSeconds(1);

    /** One pooled lab each of two lessons, on a server of three slots. */
    public static class Pooled extends FakeRuntimeProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("tclab.pool.\"example\"", "1");
            config.put("tclab.pool.\"ws-test\"", "1");
            config.put("tclab.lab.max-lifetime", "20m");
            config.put("tclab.lab.unwatched-timeout", "2h");
            config.put("tclab.lab.pool-refill-quiet", QUIET.toMillis() + "ms");
            return config;
        }
    }

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabRegistry registry;

    @Inject
    TopologySource topologies;

    @Inject
    MeterRegistry metrics;

    @Inject
    MovableClock clock;

    @BeforeEach
    @AfterEach
    void stopLearnersLabsAndAwaitAFullPool() throws Exception {
        clock.reset();
        for (Lab lab : labs.all()) {
            if (lab.phase().live()) {
                labs.stop(lab.id(), lab.owner());
            }
        }
        labs.refillPool();
        await("a full pool", () -> labs.pooledReady("example") == 1 && labs.pooledReady("ws-test") == 1);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    private LabService.StartResult start(String owner, String lesson) throws Exception {
        return labs.startOrGet(owner, lesson, topologies.topologyFor(lesson).orElseThrow(), admitted -> {});
    }

    /**
     * The pooled lab of {@code lesson} as recorded, once it is: the starter marks a lab ready before it writes the
     * record, so the pool's count ({@link LabService#pooledReady}) may run a moment ahead of the database.
     */
    private LabRecord pooledRecord(String lesson) throws InterruptedException {
        await(
                "a pooled lab of " + lesson + " recorded as running",
                () -> recordedPooled(lesson).isPresent());
        return recordedPooled(lesson).orElseThrow();
    }

    private Optional<LabRecord> recordedPooled(String lesson) {
        return registry.live().stream()
                .filter(r -> r.owner() == null
                        && r.lesson().equals(lesson)
                        && r.phase() == LabPhase.RUNNING
                        && runtime.running.containsKey(r.id()))
                .findFirst();
    }

    private double counter(String name) {
        return metrics.counter(name).count();
    }

    @Test
    void shouldHandAReadyPooledLabToTheFirstLearnerAndRefillThePool() throws Exception {
        LabRecord pooled = pooledRecord("example");
        double handouts = counter("tclab.pool.handouts");
        Instant before = Instant.now();

        LabService.StartResult result = start("ann", "example");

        Lab lab = result.lab();
        assertThat(result.created()).isTrue();
        assertThat(lab.id()).as("the pooled lab itself").isEqualTo(pooled.id());
        assertThat(lab.phase()).as("ready at once").isEqualTo(LabPhase.RUNNING);
        assertThat(lab.owner()).isEqualTo("ann");
        assertThat(labs.labsOf("ann")).containsExactly(lab);
        assertThat(counter("tclab.pool.handouts")).isEqualTo(handouts + 1);
        assertThat(registry.live())
                .filteredOn(r -> r.id().equals(lab.id()))
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.owner()).as("ownership is in the database").isEqualTo("ann");
                    assertThat(r.createdAt()).isAfterOrEqualTo(before.minusMillis(1));
                });
        assertThat(labs.startOrGet("ann", "example", lab.topology(), admitted -> {})
                        .lab())
                .as("the same learner's second Start gets the same lab")
                .isSameAs(lab);

        await("a new pooled lab of the lesson", () -> labs.pooledReady("example") == 1);
        assertThat(pooledRecord("example").id()).isNotEqualTo(lab.id());
        assertThat(labs.liveCount()).isEqualTo(3);
    }

    @Test
    void shouldStartNoPooledLabWhileStartsContinueAndRefillOnceTheyAreQuiet() throws Exception {
        start("ann", "example");
        // Starts pressed one after the other, each well within the quiet time of the one before (a class's burst).
        for (int i = 0; i < 6; i++) {
            assertThat(labs.pooledCount())
                    .as("pooled labs while Starts continue: only ws-test's")
                    .isEqualTo(1);
            Thread.sleep(QUIET.toMillis() / 5);
            start("ann", "example");
        }
        await("a new pooled lab once Starts are quiet", () -> labs.pooledReady("example") == 1);
    }

    @Test
    void shouldCountALifetimeAndIdleTimeFromTheClaimNotFromThePoolsStart() throws Exception {
        LabRecord pooled = pooledRecord("example");
        clock.advance(Duration.ofMinutes(1));
        Instant claim = clock.instant();
        Lab lab = start("bob", "example").lab();
        assertThat(lab.createdAt()).isAfterOrEqualTo(claim.minusMillis(1));
        assertThat(lab.readyAt()).isAfterOrEqualTo(claim.minusMillis(1));
        assertThat(lab.lastActivity()).isAfterOrEqualTo(claim);
        assertThat(lab.stage()).isEqualTo(LabProgressListener.Stage.READY);
        assertThat(lab.reason()).isNull();

        labs.cull(pooled.createdAt().plus(Duration.ofMinutes(20)).plusMillis(500));
        assertThat(lab.phase())
                .as("20 min after the pool started it, but not after the claim")
                .isEqualTo(LabPhase.RUNNING);
        labs.cull(lab.createdAt().plus(Duration.ofMinutes(20)).plusSeconds(1));
        assertThat(lab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(lab.reason()).contains("maximum lab lifetime");
    }

    @Test
    void shouldHandThePooledLabToExactlyOneOfTwoLearnersPressingStartAtOnce() throws Exception {
        String pooledId = pooledRecord("ws-test").id();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Callable<Lab>> starts = List.of(
                    () -> {
                        go.await();
                        return start("cat", "ws-test").lab();
                    },
                    () -> {
                        go.await();
                        return start("dan", "ws-test").lab();
                    });
            List<Future<Lab>> results = starts.stream().map(two::submit).toList();
            go.countDown();
            Lab first = results.get(0).get();
            Lab second = results.get(1).get();
            assertThat(Set.of(first.id(), second.id())).hasSize(2).contains(pooledId);
            Lab winner = first.id().equals(pooledId) ? first : second;
            Lab other = winner == first ? second : first;
            assertThat(winner.phase()).isEqualTo(LabPhase.RUNNING);
            assertThat(other.owner()).isNotEqualTo(winner.owner());
            await("the other learner's fresh lab", () -> other.phase() == LabPhase.RUNNING);
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    void shouldRefillWithinTheMaximumAndFreePooledSlotsForLearnersBeforeQueueing() throws Exception {
        double misses = counter("tclab.pool.misses");
        Lab a = start("a", "web-test").lab();
        await("a runs", () -> a.phase() == LabPhase.RUNNING);
        assertThat(labs.liveCount())
                .as("one learner's lab and two pooled: the server is full")
                .isEqualTo(3);

        Lab b = start("b", "web-test").lab();
        assertThat(b.phase()).as("a pooled lab gave up its slot").isNotEqualTo(LabPhase.QUEUED);
        assertThat(labs.pooledCount()).isEqualTo(1);
        Lab c = start("c", "web-test").lab();
        assertThat(c.phase()).isNotEqualTo(LabPhase.QUEUED);
        assertThat(labs.pooledCount()).isZero();
        Lab d = start("d", "web-test").lab();
        assertThat(d.phase()).as("no pooled lab left to give way").isEqualTo(LabPhase.QUEUED);
        await("the pooled labs' containers removed", () -> runtime.running.size() == 3);
        assertThat(counter("tclab.pool.misses"))
                .as("web-test is not pooled: no miss")
                .isEqualTo(misses);

        labs.refillPool();
        assertThat(labs.pooledCount()).as("no refill beyond the maximum").isZero();
        labs.stop(a.id(), "a");
        await("the queued learner first", () -> d.phase() == LabPhase.RUNNING);
        assertThat(labs.pooledCount()).isZero();
        labs.stop(b.id(), "b");
        await("a pooled lab in the freed slot", () -> labs.pooledCount() == 1);
        assertThat(labs.liveCount()).isEqualTo(3);

        // A Start of a pooled lesson finding no ready lab is a miss; it takes a pooled slot of the other lesson.
        await("the pooled lab ready", () -> labs.pooledReady("example") + labs.pooledReady("ws-test") == 1);
        String emptyLesson = labs.pooledReady("example") == 1 ? "ws-test" : "example";
        Lab e = start("e", emptyLesson).lab();
        assertThat(e.phase()).isNotEqualTo(LabPhase.QUEUED);
        assertThat(counter("tclab.pool.misses")).isEqualTo(misses + 1);
    }

    @Test
    void shouldAdoptARecordedPooledLabIntoThePoolAfterARestartAndTrimThePoolToItsTarget() throws Exception {
        Instant started = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        registry.save(new LabRecord(
                "pooled-before",
                null,
                "example",
                Map.of(),
                LabPhase.RUNNING,
                started,
                started,
                started,
                null,
                null,
                2));
        runtime.running.put(
                "pooled-before",
                new LabSpec(
                        "pooled-before",
                        topologies.topologyFor("example").orElseThrow(),
                        LabSpec.POOL_OWNER,
                        "example",
                        true));

        labs.reapOrphans();

        assertThat(runtime.running).as("a pooled lab is not an orphan").containsKey("pooled-before");
        assertThat(labs.all()).as("nobody's lab").noneMatch(l -> l.id().equals("pooled-before"));
        // 3, or already 2: a refill the set-up's stops asked for may run now and stop the newest surplus lab.
        assertThat(labs.pooledCount()).isIn(2, 3);
        labs.refillPool();
        assertThat(labs.pooledCount())
                .as("back to one per lesson: the newest surplus stopped")
                .isEqualTo(2);
        assertThat(runtime.running).containsKey("pooled-before");
        assertThat(start("eve", "example").lab().id())
                .as("the oldest ready lab is handed out first")
                .isEqualTo("pooled-before");
    }

    @Test
    void shouldNotPoolALabWhoseLabYmlNamesAParameter() {
        Topology plain = TestTopologies.load("two-node");
        Topology.Node client = plain.nodes().get("client");
        Topology.Node perLearner = new Topology.Node(
                client.name(),
                client.image(),
                client.hidden(),
                client.env(),
                client.sysctls(),
                List.of("tc qdisc add dev eth1 root tbf rate {{rate}}mbit"),
                client.stats());
        Map<String, Topology.Node> nodes = new HashMap<>(plain.nodes());
        nodes.put("client", perLearner);
        assertThat(WarmPool.poolable(plain)).isTrue();
        assertThat(WarmPool.poolable(new Topology(plain.name(), nodes, plain.links())))
                .isFalse();
    }
}
