package dev.tclab.runtime.docker;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import dev.tclab.config.TclabConfig;
import dev.tclab.lab.TestTopologies;
import dev.tclab.runtime.CpuPriority;
import dev.tclab.runtime.ExecResult;
import dev.tclab.runtime.LabSpec;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lab whose check measures gets the CPU before labs that only burn it (issue 44): three two-node labs each run one
 * CPU hog in a node (three cores asked of a two-core host, each node capped at one), first all at rest, then with the
 * first lab's priority raised. The work each hog does is counted in the node itself.
 */
@QuarkusTest
// Shared: its hogs load the machine, but it asserts only a ratio between labs, which more load can only widen.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class CpuWeightsIT {

    /** Counts busy loops of 100,000 for the given seconds: work done, proportional to the CPU the node got. */
    private static final String HOG =
            "perl -e '$e = time + %d; while (time < $e) { for (1 .. 100000) {} $n++ } print $n'";

    private static final int SECONDS = 4;

    @Inject
    RuntimeAdapter runtime;

    @Inject
    DockerClient docker;

    @Inject
    TclabConfig config;

    private final List<String> labs = new ArrayList<>();

    @BeforeEach
    void startLabs() throws Exception {
        for (int i = 0; i < 3; i++) {
            String lab = "w" + UUID.randomUUID().toString().substring(0, 8);
            labs.add(lab);
            runtime.start(new LabSpec(lab, TestTopologies.load("two-node"), "tester", "two-node"), (s, d) -> {});
        }
    }

    @AfterEach
    void stopLabs() throws Exception {
        for (String lab : labs) {
            runtime.stop(lab);
        }
    }

    @Test
    void shouldGiveAMeasuringLabTheCpuBeforeLabsThatOnlyBurnIt() throws Exception {
        String measuring = labs.get(0);
        assertThat(sharesOf(measuring))
                .as("each of a two-node lab's four containers at rest: half of one lab's weight")
                .containsOnly(CpuWeights.atRest(2));

        double atRest = firstAgainstOthers(hogEverywhere());

        double raised;
        try (CpuPriority priority = runtime.raiseCpuPriority(measuring);
                CpuPriority nested = runtime.raiseCpuPriority(measuring)) {
            assertThat(sharesOf(measuring)).containsOnly(CpuWeights.measuring(2));
            assertThat(sharesOf(labs.get(1))).containsOnly(CpuWeights.atRest(2));
            raised = firstAgainstOthers(hogEverywhere());
            nested.close();
            assertThat(sharesOf(measuring))
                    .as("still raised while the outer priority is open")
                    .containsOnly(CpuWeights.measuring(2));
        }
        assertThat(sharesOf(measuring)).containsOnly(CpuWeights.atRest(2));

        System.out.printf(
                Locale.ROOT,
                "FIGURE cpu-weights: the first lab's hog did %.2f x the others' work at rest, %.2f x raised%n",
                atRest,
                raised);
        assertThat(raised)
                .as("work of the raised lab's hog against the others' (at rest it was %.2f)", atRest)
                .isGreaterThan(1.5)
                .isGreaterThan(1.3 * atRest);
    }

    /** Runs one hog in each lab's client node at once; the work each did, in lab order. */
    private List<Long> hogEverywhere() {
        List<CompletableFuture<ExecResult>> runs = labs.stream()
                .map(lab -> CompletableFuture.supplyAsync(() -> DockerExec.run(
                        docker,
                        NodeContainers.name(lab, "client"),
                        List.of("sh", "-c", String.format(Locale.ROOT, HOG, SECONDS)),
                        Duration.ofSeconds(SECONDS + 30))))
                .toList();
        return runs.stream()
                .map(CompletableFuture::join)
                .map(r -> {
                    assertThat(r.ok()).as(r.stderr()).isTrue();
                    return Long.parseLong(r.stdout().trim());
                })
                .toList();
    }

    private static double firstAgainstOthers(List<Long> work) {
        return work.get(0) / ((work.get(1) + work.get(2)) / 2.0);
    }

    private List<Integer> sharesOf(String lab) {
        List<Container> found = docker.listContainersCmd()
                .withLabelFilter(Labels.labOf(config.instance(), lab))
                .exec();
        assertThat(found).hasSize(4);
        return found.stream()
                .map(c -> docker.inspectContainerCmd(c.getId())
                        .exec()
                        .getHostConfig()
                        .getCpuShares())
                .toList();
    }
}
