package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.run.BaselineStore;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.run.CheckRunner;
import dev.tclab.grading.run.LinkProof;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonCatalog;
import dev.tclab.runtime.KernelCapabilities;
import dev.tclab.runtime.LabEngine;
import dev.tclab.runtime.RuntimeAdapter;
import dev.tclab.runtime.topology.Topology;
import dev.tclab.system.SystemStatus;
import dev.tclab.testing.RunsAlone;
import dev.tclab.testing.UmlFigures;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The built-in lessons on User-Mode Linux labs, on the real engine: the two CAKE lessons (lab.yml {@code kernel: auto})
 * go to UML on a host without CAKE and pass their self-tests with CAKE itself, no fallback; the lessons whose lab.yml
 * says {@code kernel: uml} pass theirs in the kernel of their own they get on every host; and every built-in lesson
 * on the host's kernel but those of {@link #NOT_FORCED_INTO_UML} passes its self-test when its lab is forced into UML.
 * Each check's measured values are printed ({@code FIGURE} lines), for docs/LESSONS.md.
 * <p>
 * The lessons go in two lanes at once, as two learners of a class on a two-core server would: a UML lab is one kernel
 * on one core, and the app measures in two labs at once by default ({@code tclab.grading.max-concurrent-measurements}).
 * One lane has the lessons forced into UML, the other the CAKE lessons, and the lessons with a kernel of their own
 * take turns between them; each lane runs its lessons in turn. With the machine to itself (docs/testing.md, "The parts"), two UML labs at once read what one alone does.
 */
@QuarkusTest
@RunsAlone(RunsAlone.Group.MEASUREMENTS)
@UmlFigures
class UmlLessonsSelfTestIT {

    /** The built-in lessons whose labs get a kernel of their own on a host without CAKE: their one self-test here. */
    static final List<String> CAKE_LESSONS = List.of("bufferbloat-upload", "bufferbloat-download");

    /** The built-in lessons whose lab.yml says {@code kernel: uml}: a kernel of their own on every host. */
    static final List<String> OWN_KERNEL_LESSONS = List.of(
            "netem-tcp", "fq-codel", "fair-queueing", "prio-dscp", "policing", "cake-in-depth", "home-router-qos");

    /**
     * The lessons on the host's kernel that are not forced into UML here, each with the reason. Their lab.yml says
     * {@code kernel: host}, so no learner ever gets them in UML; BuiltInLessonsSelfTestIT self-tests them.
     */
    static final Map<String, String> NOT_FORCED_INTO_UML = Map.of(
            "buffers",
            "its figures are a queue's delay, frame by frame, at 10 Mbit/s with segmentation offload off; a UML router"
                    + " forwarding some 830 frames a second adds a queue of its own beside other work (a longest"
                    + " ping of 227-245 ms for the 121 ms of 100 frames, docs/LESSONS.md)");

    @Inject
    LessonSelfTest selfTest;

    @Inject
    @Identifier("uml")
    RuntimeAdapter uml;

    @Inject
    LabEngine runtime;

    @Inject
    CheckRunner runner;

    @Inject
    BaselineStore baselines;

    @Inject
    SystemStatus system;

    @Inject
    LinkProof linkProof;

    @Inject
    LessonCatalog catalog;

    @TestFactory
    Stream<DynamicTest> theBuiltInLessonsPassTheirSelfTestsInUml() throws IOException {
        List<String> hostLessons = lessonsOnTheHostsKernel();
        assertThat(hostLessons).as("built-in lessons").isNotEmpty();

        LessonSelfTest onUml = new LessonSelfTest(uml, uml, runner, baselines, system, linkProof);
        Map<String, LessonsAtOnce.Body> forced = new LinkedHashMap<>();
        hostLessons.stream()
                .filter(slug -> !NOT_FORCED_INTO_UML.containsKey(slug))
                .forEach(slug -> forced.put("forced into UML: " + slug, () -> forcedIntoUml(onUml, slug)));
        Map<String, LessonsAtOnce.Body> ownKernel = new LinkedHashMap<>();
        CAKE_LESSONS.forEach(slug -> ownKernel.put("with CAKE in UML: " + slug, () -> withRealCake(slug)));
        // The lessons of a kernel of their own take turns between the lanes, so that both lanes end about together.
        for (int i = 0; i < OWN_KERNEL_LESSONS.size(); i++) {
            String slug = OWN_KERNEL_LESSONS.get(i);
            (i % 2 == 0 ? forced : ownKernel).put("in a kernel of its own: " + slug, () -> inItsOwnKernel(slug));
        }

        // Two lanes, each one lesson at a time.
        LessonsAtOnce forcedLane = new LessonsAtOnce(forced, 1);
        LessonsAtOnce cakeLane = new LessonsAtOnce(ownKernel, 1);
        return Stream.concat(forcedLane.tests(), cakeLane.tests()).onClose(() -> {
            forcedLane.close();
            cakeLane.close();
        });
    }

    private List<String> lessonsOnTheHostsKernel() throws IOException {
        try (Stream<Path> dirs = Files.list(Path.of("src/main/resources/lessons"))) {
            return dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(slug ->
                            catalog.lesson(slug).orElseThrow().topology().kernel() == Topology.Kernel.HOST)
                    .sorted()
                    .toList();
        }
    }

    /**
     * A lesson on the host's kernel, its lab forced into UML: the same figures there. The lessons whose lab.yml asks
     * for {@code kernel: auto} run in UML anyway ({@link #withRealCake}, their one self-test in the suite).
     */
    private void forcedIntoUml(LessonSelfTest onUml, String slug) throws Exception {
        SelfTestReport report = onUml.run(
                catalog.lesson(slug).orElseThrow(),
                1,
                runner.fastPaths(),
                line -> System.out.println(slug + ": " + line),
                outcome -> print(slug, "uml", outcome));
        System.out.print(report.text());
        assertThat(report.verdict()).as(report.text()).isEqualTo("ok");
    }

    /** A CAKE lesson goes to UML on this host, which has no CAKE, and passes with CAKE itself, no fallback. */
    private void withRealCake(String slug) throws Exception {
        Lesson lesson = catalog.lesson(slug).orElseThrow();
        assertThat(runtime.probeKernel().supports("qdisc:cake"))
                .as("this test proves UML's CAKE on a host without it; this host has CAKE")
                .isFalse();
        KernelCapabilities labKernel =
                runtime.ownKernel(lesson.topology(), slug).orElseThrow();
        assertThat(labKernel.supports("qdisc:cake"))
                .as("the UML kernel: " + labKernel)
                .isTrue();

        List<String> shapers = new ArrayList<>();
        SelfTestReport report =
                selfTest.run(lesson, 1, runner.fastPaths(), line -> System.out.println(slug + ": " + line), outcome -> {
                    print(slug, "app", outcome);
                    Object kind = rootKind(outcome.after());
                    if (outcome.check().startsWith("shape") && kind != null) {
                        shapers.add(outcome.check() + ":" + kind);
                    }
                });
        System.out.print(report.text());
        assertThat(report.verdict()).as(report.text()).isEqualTo("ok");
        assertThat(shapers)
                .as("the shapers the checks found")
                .isNotEmpty()
                .allSatisfy(s -> assertThat(s).endsWith(":cake"));
    }

    /** A lesson whose lab.yml says {@code kernel: uml}: its plain self-test through the app's runtime. */
    private void inItsOwnKernel(String slug) throws Exception {
        Lesson lesson = catalog.lesson(slug).orElseThrow();
        assertThat(lesson.topology().kernel()).as(slug + "'s lab.yml kernel").isEqualTo(Topology.Kernel.UML);
        SelfTestReport report = selfTest.run(
                lesson,
                1,
                runner.fastPaths(),
                line -> System.out.println(slug + ": " + line),
                outcome -> print(slug, "app", outcome));
        System.out.print(report.text());
        assertThat(report.verdict()).as(report.text()).isEqualTo("ok");
    }

    /**
     * The root qdisc's kind a check measured (a measurement named {@code q}), or null when it measured none; the
     * checks of the shaping steps ({@code shaped-upload}, {@code shaper-drops}, {@code shaped-download}) measure the
     * learner's shaper.
     */
    private static Object rootKind(CheckResult result) {
        if (result == null
                || !(result.measured().get("q") instanceof Map<?, ?> q)
                || !(q.get("root") instanceof Map<?, ?> root)) {
            return null;
        }
        return root.get("kind");
    }

    private static void print(String slug, String where, LessonSelfTest.Outcome outcome) {
        for (AssertionResult a : outcome.after().assertions()) {
            System.out.println("FIGURE " + where + " " + slug + " " + outcome.step() + "/" + outcome.check() + " "
                    + a.path() + " = " + a.measured() + (a.passed() ? "" : " (failed)"));
        }
    }
}
