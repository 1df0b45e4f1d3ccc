package dev.tclab.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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

    private final Topology topology = TestTopologies.load("two-node");

    @BeforeEach
    @AfterEach
    void clean() throws Exception {
        Labs.clean(labs, runtime);
    }

    private Lab running(String owner, String lesson) throws Exception {
        Lab lab = labs.startOrGet(owner, lesson, topology, admitted -> { }).lab();
        for (int i = 0; i < 100 && lab.phase() == LabPhase.STARTING; i++) {
            Thread.sleep(10);
        }
        assertThat(lab.phase()).isEqualTo(LabPhase.RUNNING);
        return lab;
    }

    @Test
    void shouldStartInTheBackgroundAndReachRunningWithEveryStage() throws Exception {
        LabService.StartResult result = labs.startOrGet("ann", "tbf", topology, admitted -> { });
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
        LabService.StartResult again = labs.startOrGet("ann", "tbf", topology, admitted -> { });
        assertThat(again.created()).isFalse();
        assertSame(first, again.lab());
        assertThat(running("bob", "tbf").id()).isNotEqualTo(first.id());
    }

    @Test
    void shouldRefuseWhenTheServerIsFullAndSayWhatToDo() throws Exception {
        running("a", "x");
        running("b", "x");
        running("c", "x");
        ServerFullException full = assertThrows(ServerFullException.class, () -> labs.startOrGet("d", "x", topology, admitted -> { }));
        assertThat(full.getMessage()).contains("3 labs are running").contains("tclab.lab.max-running");
        assertThat(runtime.running).hasSize(3);
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
        Thread.sleep(5);
        labs.get(lab.id(), "ann");
        labs.refresh(lab);
        assertThat(lab.lastActivity()).isEqualTo(before);
        labs.startOrGet("ann", "tbf", topology, admitted -> { });
        assertThat(lab.lastActivity()).isAfter(before);
    }

    @Test
    void shouldStopLabsPastTheirMaximumLifetime() throws Exception {
        Lab lab = running("ann", "tbf");
        Instant muchLater = Instant.now().plus(Duration.ofHours(5));
        lab.touch(muchLater);
        labs.cull(muchLater);
        assertThat(lab.phase()).isEqualTo(LabPhase.STOPPED);
        assertThat(lab.reason()).contains("maximum lab lifetime");
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
        Lab lab = labs.startOrGet("ann", "tbf", topology, admitted -> { }).lab();
        for (int i = 0; i < 100 && lab.phase() == LabPhase.STARTING; i++) {
            Thread.sleep(10);
        }
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason()).isEqualTo("The lab could not start: wiring the links failed: RTNETLINK answers: File exists");
        assertThat(labs.liveCount()).isZero();
    }

    @Test
    void shouldNoticeALabWhoseContainersDied() throws Exception {
        Lab lab = running("ann", "tbf");
        runtime.running.remove(lab.id());
        labs.refresh(lab);
        assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
        assertThat(lab.reason()).contains("The lab died").contains("start a new one");
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
    void shouldRefuseToStartWhileTheEngineIsDown() {
        runtime.reachable = false;
        EngineUnavailableException down = assertThrows(EngineUnavailableException.class,
                () -> labs.startOrGet("ann", "tbf", topology, admitted -> { }));
        assertThat(down.getMessage()).isEqualTo("cannot reach the Docker engine at fake://: fake engine is down");
        assertThat(labs.labsOf("ann")).noneMatch(l -> l.phase().live());
        assertThat(Map.copyOf(runtime.running)).isEmpty();
    }
}
