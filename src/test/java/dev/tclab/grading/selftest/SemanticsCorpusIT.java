package dev.tclab.grading.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.tclab.grading.evaluate.AssertionResult;
import dev.tclab.grading.evaluate.FlowMiss;
import dev.tclab.grading.run.CheckResult;
import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.testing.RunsAlone;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The semantics corpus (src/test/resources/semantics, see its README): every lesson self-tested on the real engine on
 * the fast paths and the plain way, side by side; each check must answer what expected.yml says, both ways, so a
 * speed cut can change how long a check takes, never what it answers.
 */
@QuarkusTest
// Shared: every corpus lab's flows are shaped by its lab (tbf 20 Mbit/s) or capped by the platform at twice what its
// check passes (23 Mbit/s at most), far under what a core carries; its bounds are rates of those flows, ratios of two
// of them, and a ping held above a floor that load only raises. Beside an exclusive class it would skew line rates.
@RunsAlone(value = RunsAlone.Group.MEASUREMENTS, hold = RunsAlone.Hold.SHARED)
class SemanticsCorpusIT {

    private static final Path CORPUS = Path.of("src/test/resources/semantics");

    @Inject
    LessonSelfTest selfTest;

    /** The outcomes of one lesson run one way, by {@code step/check}. */
    private record Run(
            String lesson, boolean fast, SelfTestReport report, Map<String, LessonSelfTest.Outcome> outcomes) {}

    @Test
    void everyRuleAnswersAlikeOnTheFastPathsAndThePlainWay() throws Exception {
        JsonNode expected = new ObjectMapper(new YAMLFactory())
                .readTree(CORPUS.resolve("expected.yml").toFile());
        List<Future<Run>> runs = new ArrayList<>();
        // Four at once: the labs' flows are shaped, so they take small shares of the measurement slots. The flows
        // lesson's loads of two flows take a whole slot per flow, all there are, so they go when nobody else waits
        // (MeasurementSlots): that lesson ends last however many run at once (9 s alone, 59 to 73 s here).
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (Iterator<String> it = expected.fieldNames(); it.hasNext(); ) {
                String slug = it.next();
                Lesson lesson =
                        new LessonLoader(new SpecCheckValidator()).load(CORPUS.resolve(slug), "semantics/" + slug);
                assertThat(lesson.problems())
                        .as("corpus lesson %s validates", slug)
                        .isEmpty();
                for (boolean fast : new boolean[] {true, false}) {
                    runs.add(pool.submit(() -> {
                        Map<String, LessonSelfTest.Outcome> outcomes = new ConcurrentHashMap<>();
                        SelfTestReport report = selfTest.run(
                                lesson, 1, fast, line -> {}, o -> outcomes.put(o.step() + "/" + o.check(), o));
                        return new Run(slug, fast, report, outcomes);
                    }));
                }
            }
            SoftAssertions soft = new SoftAssertions();
            for (Future<Run> future : runs) {
                Run run = future.get();
                System.out.print((run.fast() ? "fast paths: " : "plain way: ")
                        + run.report().text());
                expected.get(run.lesson())
                        .fields()
                        .forEachRemaining(check -> assertAnswers(soft, run, check.getKey(), check.getValue()));
            }
            soft.assertAll();
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertAnswers(SoftAssertions soft, Run run, String check, JsonNode want) {
        String way = run.lesson() + "/" + check + (run.fast() ? " on the fast paths" : " the plain way") + " ("
                + want.path("rule").asText() + ")";
        LessonSelfTest.Outcome outcome = run.outcomes().get(check);
        soft.assertThat(outcome).as(way + ": ran").isNotNull();
        if (outcome == null) {
            return;
        }
        if (want.has("before")) {
            soft.assertThat(status(outcome.before()))
                    .as(way + ": before its solution; " + outcome.before())
                    .isEqualTo(want.get("before").asText());
            List<String> skips = new ArrayList<>();
            want.path("fast_before_skips").forEach(n -> skips.add(n.asText()));
            for (String skipped : skips) {
                String error = outcome.before().errors().getOrDefault(skipped, "");
                if (run.fast()) {
                    soft.assertThat(error)
                            .as(way + ": %s skipped by the failing gate", skipped)
                            .contains("skipped");
                } else {
                    soft.assertThat(error)
                            .as(way + ": %s measured the plain way", skipped)
                            .isEmpty();
                }
            }
        }
        CheckResult after = outcome.after();
        soft.assertThat(status(after))
                .as(way + ": after its solution; " + after.message() + " " + after.assertions())
                .isEqualTo(want.get("after").asText());
        if (want.has("attempts_after")) {
            soft.assertThat(after.attempts())
                    .as(way + ": samples after")
                    .isEqualTo(want.get("attempts_after").asInt());
        }
        if (want.has("flow_miss_after")) {
            assertFlowMiss(soft, way, after, want.get("flow_miss_after"));
        }
        Map<String, Double> measured = new LinkedHashMap<>();
        flatten(after.assertions()).forEach(a -> {
            Double value = a.ratio() != null ? a.ratio() : a.number();
            if (value != null) {
                measured.put(a.path(), value);
            }
        });
        want.path("values").fields().forEachRemaining(value -> {
            double low = value.getValue().get(0).asDouble();
            double high = value.getValue().get(1).asDouble();
            soft.assertThat(measured.get(value.getKey()))
                    .as(way + ": " + value.getKey() + " in " + value.getValue())
                    .isNotNull()
                    .isBetween(low, high);
        });
    }

    /**
     * The failed expectation says where the flow went: the class, whether it is the default, the class it reads, and a
     * sentence naming the class and the flow's destination port (one of the platform's random server ports).
     */
    private static void assertFlowMiss(SoftAssertions soft, String way, CheckResult after, JsonNode want) {
        FlowMiss miss = flatten(after.assertions()).stream()
                .filter(a -> a.reason() != null && a.reason().flow() != null)
                .map(a -> a.reason().flow())
                .findFirst()
                .orElse(null);
        soft.assertThat(miss)
                .as(way + ": a failed expectation says where the flow went; " + after.flows())
                .isNotNull();
        if (miss == null) {
            return;
        }
        soft.assertThat(miss.wentThrough())
                .as(way + ": the class it went through")
                .isEqualTo(want.get("went").asText());
        soft.assertThat(miss.byDefault())
                .as(way + ": the default")
                .isEqualTo(want.get("default").asBoolean());
        soft.assertThat(miss.expected())
                .as(way + ": the class read")
                .isEqualTo(want.get("expected").asText());
        soft.assertThat(miss.serverPort()).as(way + ": a random server port").isBetween(20000, 29999);
        soft.assertThat(after.message())
                .as(way + ": the check's message")
                .contains("went through class " + miss.wentThrough())
                .contains("port " + miss.serverPort());
    }

    private static String status(CheckResult result) {
        return result == null ? "not run" : result.status().name().toLowerCase();
    }

    private static List<AssertionResult> flatten(List<AssertionResult> assertions) {
        List<AssertionResult> all = new ArrayList<>();
        for (AssertionResult a : assertions) {
            all.add(a);
            all.addAll(flatten(a.children()));
        }
        return all;
    }
}
