package dev.tclab.grading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.spec.Assertion;
import dev.tclab.grading.spec.CheckSpec;
import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.grading.spec.Comparison;
import dev.tclab.grading.spec.Quantity;
import dev.tclab.grading.spec.SpecCheckValidator;
import dev.tclab.grading.spec.Unit;
import dev.tclab.lesson.Lesson;
import dev.tclab.lesson.LessonLoader;
import dev.tclab.lesson.LessonRenderer;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.Parameters;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A check's title is what the learner is told the check wants, so the built-in lessons' titles and thresholds agree:
 * every number with a unit in a title is a threshold of one of its expectations (a title saying "far above 100
 * Mbit/s" must not expect above 1 Gbit/s), and a title that promises a baseline's speed ("native speed") compares
 * with a baseline and accepts no less than a quarter of it.
 */
class TitlesAgreeTest {

    private static final Pattern NUMBER_WITH_UNIT =
            Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(Gbit/s|Mbit/s|kbit/s|bit/s|ms|µs|KiB|MiB|bytes)\\b");
    private static final Pattern PROMISES_BASELINE = Pattern.compile("(?i)native speed|baseline");

    @Test
    void everyBuiltInCheckTitleAgreesWithItsExpectations() throws IOException, CheckSpecException {
        List<String> disagreements = new ArrayList<>();
        int titles = 0;
        try (Stream<Path> dirs = Files.list(Path.of("src/main/resources/lessons"))) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                Lesson lesson = new LessonLoader(new SpecCheckValidator()).load(dir, "lessons/" + dir.getFileName());
                assertThat(lesson.problems()).as(dir.toString()).isEmpty();
                for (Map<String, String> choice :
                        Parameters.everyChoice(lesson.meta().parameters())) {
                    LessonView view =
                            LessonRenderer.render(lesson, choice, feature -> true, Map.of(), new SpecCheckValidator());
                    for (LessonView.StepView step : view.steps()) {
                        for (CheckRef ref : step.checks()) {
                            CheckSpec spec = CheckSpecParser.parse(ref.file(), ref.yaml(), ref.line());
                            titles++;
                            disagreement(spec)
                                    .ifPresent(d -> disagreements.add(lesson.slug() + " " + ref.file() + ":"
                                            + ref.line() + " \"" + spec.title() + "\": " + d));
                        }
                    }
                }
            }
        }
        assertThat(titles).as("checks with titles").isGreaterThan(10);
        assertThat(disagreements)
                .as("titles that say something their expectations do not")
                .isEmpty();
    }

    @Test
    void shouldCatchATitleWhoseNumberNoExpectationUses() throws CheckSpecException {
        CheckSpec far = CheckSpecParser.parse("t.md", """
                title: the unshaped cable runs far above 100 Mbit/s
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }
                expect:
                  - { value: up.mbps, above: 1000mbit }
                """, 1);
        assertThat(disagreement(far).orElse("")).contains("100 Mbit/s is no threshold of its expectations");
        CheckSpec native5 = CheckSpecParser.parse("t.md", """
                title: the cable is back to its native speed
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }
                expect:
                  - { value: up.mbps, ratio_to: baseline.native, above: 0.05 }
                """, 1);
        assertThat(disagreement(native5).orElse("")).contains("accepts 0.05 of it");
        CheckSpec gbit = CheckSpecParser.parse("t.md", """
                title: the unshaped cable runs above 1 Gbit/s
                measure:
                  - { name: up, node: client, iperf3: { server: 10.0.0.2 } }
                expect:
                  - { value: up.mbps, above: 1000mbit }
                """, 1);
        assertThat(disagreement(gbit)).isEmpty();
    }

    static Optional<String> disagreement(CheckSpec spec) {
        String title = spec.title() == null ? "" : spec.title();
        List<Comparison> comparisons = new ArrayList<>();
        List<Assertion.Check> checks = new ArrayList<>();
        spec.expect().forEach(a -> leaves(a, checks));
        checks.forEach(c -> comparisons.add(c.comparison()));
        Matcher m = NUMBER_WITH_UNIT.matcher(title);
        while (m.find()) {
            Unit unit = Quantity.unitNamed(
                            m.group(2).equals("KiB") ? "kb" : m.group(2).equals("MiB") ? "mb" : m.group(2))
                    .orElseThrow();
            double base = unit.toBase(Double.parseDouble(m.group(1)));
            if (comparisons.stream().flatMap(c -> thresholds(c).stream()).noneMatch(q -> close(q, base, unit))) {
                return Optional.of(m.group() + " is no threshold of its expectations");
            }
        }
        if (PROMISES_BASELINE.matcher(title.toLowerCase(Locale.ROOT)).find()) {
            Optional<Assertion.Check> ratio = checks.stream()
                    .filter(c -> c.ratioTo() != null && c.ratioTo().root().equals("baseline"))
                    .findFirst();
            if (ratio.isEmpty()) {
                return Optional.of("it promises a baseline's speed but compares with no baseline");
            }
            double lowest = lowest(ratio.get().comparison());
            if (lowest < 0.25) {
                return Optional.of("it promises a baseline's speed but accepts " + Quantity.format(lowest) + " of it");
            }
        }
        return Optional.empty();
    }

    private static void leaves(Assertion a, List<Assertion.Check> into) {
        if (a instanceof Assertion.Check c) {
            into.add(c);
        } else if (a instanceof Assertion.AllOf all) {
            all.children().forEach(child -> leaves(child, into));
        } else {
            ((Assertion.AnyOf) a).children().forEach(child -> leaves(child, into));
        }
    }

    private static List<Quantity> thresholds(Comparison c) {
        if (c instanceof Comparison.Near near) {
            return List.of(near.target());
        }
        if (c instanceof Comparison.Between b) {
            return List.of(b.low(), b.high());
        }
        if (c instanceof Comparison.Equals eq) {
            return eq.quantity() == null ? List.of() : List.of(eq.quantity());
        }
        if (c instanceof Comparison.Bounds b) {
            List<Quantity> bounds = new ArrayList<>();
            Optional.ofNullable(b.above()).ifPresent(bounds::add);
            Optional.ofNullable(b.below()).ifPresent(bounds::add);
            return bounds;
        }
        return List.of();
    }

    private static boolean close(Quantity q, double base, Unit unit) {
        return q.hasUnit()
                && q.unit().dimension() == unit.dimension()
                && Math.abs(q.unit().toBase(q.value()) - base) <= 1e-9 * Math.max(1, Math.abs(base));
    }

    /** The lowest ratio the comparison accepts (0 when it accepts any). */
    private static double lowest(Comparison c) {
        if (c instanceof Comparison.Near near) {
            double target = near.target().value();
            return target - near.within().allowance(target, Unit.NONE);
        }
        if (c instanceof Comparison.Between b) {
            return b.low().value();
        }
        if (c instanceof Comparison.Bounds b && b.above() != null) {
            return b.above().value();
        }
        return 0;
    }
}
