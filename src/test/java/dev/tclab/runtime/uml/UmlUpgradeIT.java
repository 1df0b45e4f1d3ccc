package dev.tclab.runtime.uml;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.HostConfig;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.Lab;
import dev.tclab.lab.LabPhase;
import dev.tclab.lab.LabRecord;
import dev.tclab.lab.LabRegistry;
import dev.tclab.lab.LabService;
import dev.tclab.runtime.LabelKeys;
import dev.tclab.runtime.NodeStatus;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.agent.UmlScripts;
import dev.tclab.runtime.docker.Labels;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * UML labs across an upgrade, on the real engine and database: a lab's kernel runs the scripts (init, agent, lab.pl)
 * of the build that booted it, and a newer build cannot drive an older agent (a terminal is a request it does not
 * know). Such a lab, met after a restart, is ended with the reason for its learner, and a pooled one is replaced; a
 * lab booted by this build carries this build's version and runs.
 */
@QuarkusTest
class UmlUpgradeIT {

    private static final String LESSON = "uml-test";

    @Inject
    LabService labs;

    @Inject
    LabRegistry registry;

    @Inject
    DockerClient docker;

    @Inject
    TclabConfig config;

    @Inject
    @Identifier("uml")
    RuntimeAdapter runtime;

    /**
     * What an older app left running: a learner's UML lab whose container has no version label (as every UML lab made
     * before versions), and a pooled one of another version, both recorded as running. Their kernels are stand-ins
     * ({@code sleep}): what tells them apart is the label, which adoption reads without attaching.
     */
    @Test
    void shouldEndALearnersLabAndDropAPooledLabThatAnotherBuildBooted() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String learners = "o" + suffix;
        String pooled = "p" + suffix;
        String owner = "upgraded-" + suffix;
        try {
            plant(learners, owner, null);
            plant(pooled, null, "0123456789ab");
            Instant created = Instant.now().minusSeconds(60);
            registry.save(record(learners, owner, created));
            registry.save(record(pooled, null, created));

            assertThat(runtime.status(learners))
                    .as("a kernel another build booted counts as dead")
                    .containsExactlyInAnyOrder(
                            new NodeStatus("client", false, UmlScripts.OTHER_BUILD),
                            new NodeStatus("server", false, UmlScripts.OTHER_BUILD));

            labs.adoptRecorded();

            Lab lab = labs.get(learners, owner);
            assertThat(lab.phase()).isEqualTo(LabPhase.FAILED);
            assertThat(lab.reason()).contains("another version of tclab").contains("Start it again");
            long recorded = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (registry.find(pooled).map(r -> r.phase().live()).orElse(true) && System.nanoTime() < recorded) {
                Thread.sleep(100);
            }
            assertThat(registry.find(pooled))
                    .hasValueSatisfying(r -> assertThat(r.phase().live())
                            .as("the pooled lab is recorded ended")
                            .isFalse());
            assertThat(labs.pooledReady(LESSON))
                    .as("the old pooled lab is not handed out")
                    .isZero();

            labs.reapOrphans();
            assertThat(containersOf(learners))
                    .as("the learner's old lab is removed")
                    .isZero();
            assertThat(containersOf(pooled)).as("the old pooled lab is removed").isZero();
        } finally {
            runtime.stop(learners);
            runtime.stop(pooled);
        }
    }

    private void plant(String labId, String owner, String platform) {
        Map<String, String> labels = new HashMap<>(Map.of(
                LabelKeys.APP,
                "tclab",
                LabelKeys.INSTANCE,
                config.instance(),
                LabelKeys.ROLE,
                Labels.ROLE_UML,
                LabelKeys.LAB,
                labId,
                LabelKeys.OWNER,
                owner == null ? "pool" : owner,
                LabelKeys.LESSON,
                LESSON,
                Labels.NODES,
                "client,server",
                LabelKeys.EXPIRES,
                Long.toString(Instant.now().plusSeconds(600).getEpochSecond())));
        if (platform != null) {
            labels.put(LabelKeys.PLATFORM, platform);
        }
        String id = docker.createContainerCmd(config.lab().umlImage())
                .withName(UmlLabRuntime.containerName(labId))
                .withCmd("sleep", "600")
                .withLabels(labels)
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none"))
                .exec()
                .getId();
        docker.startContainerCmd(id).exec();
    }

    private static LabRecord record(String id, String owner, Instant created) {
        return new LabRecord(
                id,
                owner,
                LESSON,
                Map.of(),
                LabPhase.RUNNING,
                created,
                created.plusSeconds(5),
                created.plusSeconds(5),
                null,
                null,
                1);
    }

    private int containersOf(String labId) {
        return docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of(LabelKeys.LAB, labId))
                .exec()
                .size();
    }
}
