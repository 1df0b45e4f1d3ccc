package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tclab.runtime.EngineUnavailableException;
import dev.tclab.runtime.LabProgressListener;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.topology.Topology;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lab rules above the runtime: one lab per learner and lesson, capacity, ownership, culling, reaping, dead labs. */
@QuarkusTest
@TestProfile(FakeRuntimeProfile.class)
class LabServiceTest {

    @Inject
    LabService labs;

    @Inject
    FakeLabRuntime runtime;

    @Inject
    LabRegistry registry;

    @Inject
    MovableClock clock;

    private final Topology topology = TestTopologies.load("two-node");

    @BeforeEach
    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
        clock.reset();
    }

    private Lab running(String owner, String lesson) throws Exception {
        Lab lab = labs.startOrGet(owner, lesson, topology, admitted -> {}).lab();
        for (int i = 0; i < 100 && lab.phase() == LabPhase.STARTING; i++) {
            Thread.sleep(10);
        }
        assertThat(lab.phase()).isEqualTo(LabPhase.RUNNING);
        return lab;
    }

    @Test
    void shouldStartInTheBackgroundAndReachRunningWithEveryStage() throws Exception {
        LabService.StartResult result = labs.startOrGet("ann", "tbf", topology, admitted -> {});
        assertThat(result.created()).isTrue();
        Lab lab = running("ann", "tbf");
        assertSame(result.lab(), lab);
        assertThat(lab.stage()).isEqualTo(LabProgressListener.Stage.READY);
        assertThat(lab.readyAt()).isNotNull();
        assertThat(runtime.running).containsKey(lab.id());
    }

    @Test
    void shouldGiveTheSameLabBackForTheSameLearnerAndLesson() throws Exception {
        Lab first = running("ann", "tbf");
        LabService.StartResult again = labs.startOrGet("ann", "tbf", topology, admitted -> {});
        assertThat(again.created()).isFalse();
        assertSame(first, again.lab());
        assertThat(running("bob", "tbf").id()).isNotEqualTo(first.id());
    }

    @Test
    void shouldQueueStartsFirstComeFirstServedAndStartTheHeadWhenASlotFrees() throws Exception {
        Lab a = running("a", "x");
        running("b", "x");
        running("c", "x");
        Lab d = queued("d");
        Lab e = queued("e");
        assertThat(labs.queueSpot(d))
                .hasValueSatisfying(s -> assertThat(s.position()).isEqualTo(1));
        assertThat(labs.queueSpot(e)).hasValueSatisfying(s -> {
            assertThat(s.position()).isEqualTo(2);
            assertThat(s.waiting()).isEqualTo(2);
        });
        assertSame(
                d, labs.startOrGet("d", "x", topology, admitted -> {}).lab(), "pressing Start again keeps the place");
        assertThat(runtime.running).hasSize(3);

        labs.stop(a.id(), "a");
        assertThat(running("d", "x")).isSameAs(d);
        assertThat(labs.queueSpot(e))
                .hasValueSatisfying(s -> assertThat(s.position()).isEqualTo(1));
        assertThat(e.phase()).isEqualTo(LabPhase.QUEUED);
        assertThat(labs.liveCount()).isEqualTo(3);
        assertThat(labs.queuedCount()).isEqualTo(1);
    }

    @Test
    void shouldEstimateTheWaitOnceLabsHaveEnded() throws Exception {
        Lab a = running("a", "x");
        Lab b = running("b", "x");
        running("c", "x");
        queued("d");
        queued("e");
        labs.stop(a.id(), "a");
        labs.stop(b.id(), "b");
        Lab f = queued("f");
        Lab g = queued("g");
        assertThat(labs.queueSpot(f))
                .hasValueSatisfying(s -> assertThat(s.estimatedWait()).isPresent());
        assertThat(labs.queueSpot(g).orElseThrow().estimatedWait().orElseThrow())
                .isGreaterThanOrEqualTo(
                        labs.queueSpot(f).orElseThrow().estimatedWait().orElseThrow());
    }

    @Test
    void shouldDropAStoppedQueuedLabAndMoveThoseBehindUp() throws Exception {
        Lab a = running("a", "x");
        running("b", "x");
        running("c", "x");
        Lab d = queued("d");
        Lab e = queued("e");
        labs.stop(d.id(), "d");
        assertThat(d.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(labs.queueSpot(e))
                .hasValueSatisfying(s -> assertThat(s.position()).isEqualTo(1));
        labs.stop(a.id(), "a");
        assertThat(running("e", "x")).isSameAs(e);
        assertThat(runtime.running).doesNotContainKey(d.id());
    }

    @Test
    void shouldRefuseBeyondTheQueueAndSayWhatToDo() throws Exception {
        running("a", "x");
        running("b", "x");
        running("c", "x");
        queued("d");
        queued("e");
        ServerFullException full =
                assertThrows(ServerFullException.class, () -> labs.startOrGet("f", "x", topology, admitted -> {}));
        assertThat(full.getMessage())
                .contains("3 labs are running")
                .contains("2 more are waiting")
                .contains("tclab.lab.max-running")
                .contains("tclab.lab.queue-size");
        assertThat(runtime.running).hasSize(3);
        assertThat(labs.queuedCount()).isEqualTo(2);
    }

    private Lab queued(String owner) throws Exception {
        LabService.StartResult result = labs.startOrGet(owner, "x", topology, admitted -> {});
        assertThat(result.created()).isTrue();
        assertThat(result.lab().phase()).isEqualTo(LabPhase.QUEUED);
        return result.lab();
    }

    @Test
    void shouldRecordAQueuedStartAndQueueRecordedStartsAgainInTheirOrderAfterARestart() throws Exception {
        Lab a = running("a", "x");
        Lab b = running("b", "x");
        running("c", "x");
        Lab d = queued("d");
        assertThat(registry.queued())
                .as("acknowledged, so recorded")
                .extracting(LabRecord::id)
                .contains(d.id());
        // What a process that was killed left queued: two starts (recorded newest first) and one of a lesson gone.
        Instant now = Instant.now();
        registry.save(queuedRecord("q-late", "late", "ws-test", now.minusSeconds(10)));
        registry.save(queuedRecord("q-early", "early", "ws-test", now.minusSeconds(20)));
        registry.save(queuedRecord("q-gone", "gone", "no-such-lesson", now.minusSeconds(30)));
        labs.adoptRecorded();
        assertThat(labs.queueSpot(labs.get("q-early", "early"))).hasValueSatisfying(spot -> {
            assertThat(spot.position()).isEqualTo(2);
            assertThat(spot.waiting()).isEqualTo(3);
        });
        assertThat(labs.queueSpot(labs.get("q-late", "late")))
                .hasValueSatisfying(spot -> assertThat(spot.position()).isEqualTo(3));
        assertThat(labs.get("q-gone", "gone").phase()).isEqualTo(LabPhase.FAILED);
        assertThat(labs.get("q-gone", "gone").reason()).contains("'no-such-lesson'", "gone");
        labs.adoptRecorded();
        assertThat(labs.queuedCount()).as("adopting again queues nothing twice").isEqualTo(3);

        labs.stop(a.id(), "a");
        assertThat(running("d", "x")).isSameAs(d);
        labs.stop(b.id(), "b");
        Lab early = labs.get("q-early", "early");
        assertThat(running("early", "ws-test")).isSameAs(early);
        awaitRecorded("q-early", LabPhase.RUNNING);
        assertThat(registry.find("q-early"))
                .hasValueSatisfying(r -> assertThat(r.phase()).isEqualTo(LabPhase.RUNNING));
        assertThat(labs.get("q-late", "late").phase()).isEqualTo(LabPhase.QUEUED);
        assertThat(registry.queued())
                .extracting(LabRecord::id)
                .contains("q-late")
                .doesNotContain("q-early", d.id());
    }

    private LabRecord queuedRecord(String id, String owner, String lesson, Instant created) {
        return new LabRecord(id, owner, lesson, Map.of(), LabPhase.QUEUED, created, null, created, null, null, 0);
    }

    @Test
    void shouldHideOtherLearnersLabs() throws Exception {
        Lab lab = running("ann", "tbf");
        assertThrows(LabNotFoundException.class, () -> labs.get(lab.id(), "bob"));
        assertThrows(LabNotFoundException.class, () -> labs.stop(lab.id(), "bob"));
        assertThat(labs.labsOf("bob")).noneMatch(l -> l.id().equals(lab.id()));
        assertThat(runtime.running).containsKey(lab.id());
    }

    @Test
    void shouldCullIdleLabsButKeepActiveOnes() throws Exception {
        Lab idle = running("ann", "tbf");
        Lab active = running("bob", "tbf");
        Instant later = Instant.now().plus(Duration.ofMinutes(50));
        active.touch(later.minus(Duration.ofMinutes(1)));
        labs.cull(later);
        assertThat(idle.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(idle.reason()).contains("idle");
        assertThat(runtime.running).doesNotContainKey(idle.id()).containsKey(active.id());
        assertThat(active.phase()).isEqualTo(LabPhase.RUNNING);
    }

    @Test
    void shouldNotCountLookingAtALabAsUsingIt() throws Exception {
        Lab lab = running("ann", "tbf");
        Instant before = lab.lastActivity();
        clock.advance(Duration.ofSeconds(1));
        labs.get(lab.id(), "ann");
        labs.cull(clock.instant());
        assertThat(lab.lastActivity()).isEqualTo(before);
        labs.startOrGet("ann", "tbf", topology, admitted -> {});
        assertThat(lab.lastActivity()).isAfter(before);
    }

    @Test
    void shouldStopLabsPastTheirMaximumLifetime() throws Exception {
        Lab lab = running("ann", "tbf");
        Instant muchLater = Instant.now().plus(Duration.ofHours(5));
        lab.touch(muchLater);
        labs.cull(muchLater);
        assertThat(lab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(lab.reason()).isEqualTo("Stopped after reaching the maximum lab lifetime of 4 hours.");
    }

    @Test
    void shouldReapContainersOfLabsItDoesNotKnow() throws Exception {
        Lab known = running("ann", "tbf");
        runtime.running.put("orphan1", new LabSpec("orphan1", topology, "ghost", "tbf"));
        labs.reapOrphans();
        assertThat(runtime.running).containsOnlyKeys(known.id());
    }

    @Test
    void shouldReportAStartFailureWithTheRuntimesReason() throws Exception {
        runtime.failStartWith = "wiring the links failed: RTNETLINK answers: File exists";
        Lab lab = labs.startOrGet("ann", "tbf", topology, admitted -> {}).lab();
        for (int i = 0; i < 100 && lab.phase() == LabPhase.STARTING; i++) {
            Thread.sleep(10);
        }
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason())
                .isEqualTo("The lab could not start: wiring the links failed: RTNETLINK answers: File exists");
        assertThat(labs.liveCount()).isZero();
    }

    @Test
    void shouldNoticeALabWhoseContainersDied() throws Exception {
        Lab lab = running("ann", "tbf");
        runtime.running.remove(lab.id());
        labs.cull(clock.instant());
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason()).contains("The lab died").contains("start a new one");
    }

    @Test
    void shouldFailALabWhoseKernelStoppedAnsweringRemoveItAndStartAFreshOneOnReset() throws Exception {
        Lab lab = running("ann", "example");
        Lab other = running("bob", "example");
        labs.heartbeat(clock.instant());
        assertThat(lab.phase()).as("its kernel answers").isEqualTo(LabPhase.RUNNING);

        runtime.silent.add(lab.id());
        labs.heartbeat(clock.instant());
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason()).isEqualTo("The lab's kernel stopped answering; Reset starts it again.");
        assertThat(other.phase()).isEqualTo(LabPhase.RUNNING);
        for (int i = 0; i < 100 && runtime.running.containsKey(lab.id()); i++) {
            Thread.sleep(10);
        }
        assertThat(runtime.running).as("its container is removed").doesNotContainKey(lab.id());
        assertThat(labs.liveCount()).isEqualTo(1);

        Lab fresh = labs.replace(lab.id(), "ann", "Reset by the host.", admitted -> {})
                .lab();
        for (int i = 0; i < 100 && fresh.phase() == LabPhase.STARTING; i++) {
            Thread.sleep(10);
        }
        assertThat(fresh.id()).isNotEqualTo(lab.id());
        assertThat(fresh.phase()).isEqualTo(LabPhase.RUNNING);
        assertThat(lab.reason()).as("the failed lab keeps its reason").contains("kernel stopped answering");
    }

    @Test
    void shouldFreeTheSlotOfALabWhoseContainersWereRemovedByHand() throws Exception {
        running("a", "x");
        Lab removed = running("b", "x");
        running("c", "x");
        runtime.running.remove(removed.id());
        labs.cull(Instant.now());
        assertThat(removed.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(labs.liveCount()).isEqualTo(2);
        assertThat(running("d", "x").phase()).isEqualTo(LabPhase.RUNNING);
    }

    @Test
    void shouldRemoveExpiredLabsLeftByAProcessThatIsGone() throws Exception {
        Lab mine = running("ann", "tbf");
        runtime.running.put("ghost", new LabSpec("ghost", topology, "x", "tbf"));
        runtime.expires.put("ghost", Instant.now().minusSeconds(60));
        labs.cull(Instant.now());
        assertThat(runtime.running).containsOnlyKeys(mine.id());
        assertThat(mine.phase()).isEqualTo(LabPhase.RUNNING);
    }

    @Test
    void shouldKeepAStoppedLabStoppedWhenTheStopRacesTheEndOfItsStart() throws Exception {
        int broken = 0;
        for (int i = 0; i < 200; i++) {
            AtomicBoolean startReturning = new AtomicBoolean();
            runtime.onStartReturning = () -> startReturning.set(true);
            Lab lab = labs.startOrGet("racer" + i, "tbf", topology, admitted -> {})
                    .lab();
            while (!startReturning.get()) {
                Thread.onSpinWait();
            }
            // Sweep the stop across the few microseconds in which the start worker finishes.
            long until = System.nanoTime() + (i % 50) * 100;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            labs.stop(lab.id(), lab.owner());
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < deadline && runtime.running.containsKey(lab.id())) {
                Thread.sleep(1);
            }
            if (lab.phase() != LabPhase.STOPPED || runtime.running.containsKey(lab.id())) {
                broken++;
            }
        }
        assertThat(broken)
                .as("labs left running (or with containers) after a stop")
                .isZero();
    }

    @Test
    void shouldRecordEveryPhaseChange() throws Exception {
        Lab lab = running("ann", "tbf");
        awaitRecorded(lab.id(), LabPhase.RUNNING);
        assertThat(recorded(lab.id())).hasValueSatisfying(r -> {
            assertThat(r.phase()).isEqualTo(LabPhase.RUNNING);
            assertThat(r.owner()).isEqualTo("ann");
            assertThat(r.readyAt()).isEqualTo(lab.readyAt());
        });
        labs.stop(lab.id(), "ann");
        assertThat(recorded(lab.id())).isEmpty();
    }

    @Test
    void shouldAdoptARecordedLabWhoseContainersRunAsItIs() throws Exception {
        Instant created = Instant.now().minus(Duration.ofMinutes(20)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        registry.save(record("adopt-me", LabPhase.RUNNING, created));
        runtime.running.put("adopt-me", new LabSpec("adopt-me", topology, "ann", "tbf"));
        labs.reapOrphans();
        Lab adopted = labs.getRunning("adopt-me", "ann");
        assertThat(adopted.createdAt()).isEqualTo(created);
        assertThat(adopted.lesson()).isEqualTo("ws-test");
        assertThat(adopted.parameters()).containsEntry("rate", "7mbit");
        assertThat(runtime.running).containsKey("adopt-me");
        assertThat(labs.startOrGet("ann", "ws-test", topology, admitted -> {}).created())
                .as("the adopted lab is the learner's lab")
                .isFalse();
    }

    @Test
    void shouldTellWhyARecordedLabWasNotAdoptedAndReapItsContainers() throws Exception {
        Instant created = Instant.now().minus(Duration.ofMinutes(5));
        registry.save(record("was-starting", LabPhase.STARTING, created));
        runtime.running.put("was-starting", new LabSpec("was-starting", topology, "bob", "tbf"));
        registry.save(record("gone", LabPhase.RUNNING, created));
        registry.save(record("too-old", LabPhase.RUNNING, Instant.now().minus(Duration.ofHours(5))));
        runtime.running.put("too-old", new LabSpec("too-old", topology, "bob", "tbf"));
        labs.reapOrphans();
        assertThat(labs.get("was-starting", "ann").reason()).contains("restarted while this lab was starting");
        assertThat(labs.get("gone", "ann").reason()).contains("did not survive the server's restart");
        assertThat(labs.get("too-old", "ann").phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(labs.get("too-old", "ann").reason()).contains("maximum lab lifetime");
        assertThat(runtime.running).doesNotContainKeys("was-starting", "too-old");
        assertThat(registry.live()).extracting(LabRecord::id).doesNotContain("was-starting", "gone", "too-old");
    }

    @Test
    void shouldAdoptOnTheRecordsWordWhileTheEngineIsDownAndCheckOnceItIsBack() throws Exception {
        registry.save(record("unchecked", LabPhase.RUNNING, Instant.now().minus(Duration.ofMinutes(3))));
        runtime.reachable = false;
        labs.adoptRecorded();
        assertThat(labs.getRunning("unchecked", "ann").phase()).isEqualTo(LabPhase.RUNNING);
        runtime.reachable = true;
        labs.cull(Instant.now());
        assertThat(labs.get("unchecked", "ann").phase())
                .as("its containers are gone")
                .isEqualTo(LabPhase.FAILED);
        assertThat(recorded("unchecked")).isEmpty();
    }

    @Test
    void shouldServeALabAnotherReplicaStartedAndSeeItsStopThere() throws Exception {
        // Another replica's writes: a running lab this one never started, then its stop.
        Instant created = Instant.now().minusSeconds(30);
        registry.save(record("peer-lab", LabPhase.RUNNING, created));
        runtime.running.put("peer-lab", new LabSpec("peer-lab", topology, "ann", "ws-test"));
        assertThat(labs.getRunning("peer-lab", "ann").createdAt())
                .isEqualTo(created.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        assertThat(labs.startOrGet("ann", "ws-test", topology, admitted -> {})
                        .lab()
                        .id())
                .as("the learner's lab, wherever it started")
                .isEqualTo("peer-lab");
        LabRecord stopped = new LabRecord(
                "peer-lab",
                "ann",
                "ws-test",
                Map.of("rate", "7mbit"),
                LabPhase.STOPPED,
                created,
                created.plusSeconds(1),
                created,
                Instant.now(),
                "Stopped by the learner.",
                4);
        registry.save(stopped);
        Lab seen = labs.get("peer-lab", "ann");
        assertThat(seen.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(seen.reason()).isEqualTo("Stopped by the learner.");
    }

    @Test
    void shouldNeitherFailNorReapALabAnotherReplicaIsStarting() throws Exception {
        registry.save(record("peer-starting", LabPhase.STARTING, Instant.now().minusSeconds(2)));
        runtime.running.put("peer-starting", new LabSpec("peer-starting", topology, "ann", "ws-test"));
        labs.reapOrphans();
        labs.cull(Instant.now());
        assertThat(labs.get("peer-starting", "ann").phase()).isEqualTo(LabPhase.STARTING);
        assertThat(runtime.running).containsKey("peer-starting");
        assertThat(recorded("peer-starting")).map(LabRecord::phase).contains(LabPhase.STARTING);
    }

    @Test
    void shouldLeaveIdleCullingToTheReplicaThatSawTheLabUsedLast() throws Exception {
        Lab lab = running("ann", "tbf");
        Instant later = Instant.now().plus(Duration.ofHours(1));
        // Another replica had a page open on it until just now.
        registry.seen(lab.id(), later.minusSeconds(5));
        labs.cull(later);
        assertThat(lab.phase()).as("used on another replica a moment ago").isEqualTo(LabPhase.RUNNING);
        labs.cull(later.plus(Duration.ofMinutes(50)));
        assertThat(lab.phase())
                .as("idle everywhere for longer than the idle timeout")
                .isEqualTo(LabPhase.STOPPED);
    }

    private LabRecord record(String id, LabPhase phase, Instant created) {
        return new LabRecord(
                id,
                "ann",
                "ws-test",
                Map.of("rate", "7mbit"),
                phase,
                created,
                phase == LabPhase.RUNNING ? created.plusSeconds(1) : null,
                created,
                null,
                null,
                3);
    }

    /** The start worker records a phase just after the lab turns to it in memory. */
    private void awaitRecorded(String id, LabPhase phase) throws InterruptedException {
        for (int i = 0; i < 500 && recorded(id).map(LabRecord::phase).orElse(null) != phase; i++) {
            Thread.sleep(10);
        }
    }

    private java.util.Optional<LabRecord> recorded(String id) {
        return registry.live().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    @Test
    void shouldRefuseToStartWhileTheEngineIsDown() {
        runtime.reachable = false;
        EngineUnavailableException down = assertThrows(
                EngineUnavailableException.class, () -> labs.startOrGet("ann", "tbf", topology, admitted -> {}));
        assertThat(down.getMessage()).isEqualTo("cannot reach the Docker engine at fake://: fake engine is down");
        assertThat(labs.labsOf("ann")).noneMatch(l -> l.phase().live());
        assertThat(Map.copyOf(runtime.running)).isEmpty();
    }
}
