package dev.tclab.lessons;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.grading.CheckSpec;
import dev.tclab.grading.CheckSpecParser;
import dev.tclab.lab.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seed lessons' blocks without Docker: every check parses as a check spec for every parameter choice, and
 * every command and solution names a node of the lesson's lab.yml (commands only visible ones, since the learner
 * gets no terminal on a hidden node).
 */
class SeedLessonFilesTest {

    static List<String> lessons() {
        return SeedLessonsIT.lessons().toList();
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void shouldParseEveryCheckForEveryParameterChoice(String slug) throws Exception {
        SeedLessonFiles.Lesson lesson = SeedLessonFiles.read(slug);
        int parsed = 0;
        for (Map<String, String> params : everyChoice(lesson.choices())) {
            for (SeedLessonFiles.Step step : lesson.steps()) {
                for (SeedLessonFiles.Block block : step.blocks()) {
                    if (block.type().equals("check")) {
                        CheckSpec spec = CheckSpecParser.parse(step.file(), block.body(), block.line(), params);
                        assertThat(spec.expect()).as(step.file() + ":" + block.line()).isNotEmpty();
                        parsed++;
                    }
                }
            }
        }
        assertThat(parsed).as("checks in " + slug).isPositive();
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void shouldRunCommandsAndSolutionsOnNodesOfTheLab(String slug) throws Exception {
        SeedLessonFiles.Lesson lesson = SeedLessonFiles.read(slug);
        Topology topology = lesson.topology();
        for (SeedLessonFiles.Step step : lesson.steps()) {
            for (SeedLessonFiles.Block block : step.blocks()) {
                String where = step.file() + ":" + block.line();
                if (block.type().equals("cmd")) {
                    assertThat(topology.interactiveNodes()).as(where).contains(block.node());
                }
                if (block.type().equals("solution")) {
                    assertThat(topology.nodes()).as(where).containsKey(block.node());
                }
            }
        }
    }

    /** Every combination of the parameters' choices (one empty map when there are none). */
    private static List<Map<String, String>> everyChoice(Map<String, List<String>> choices) {
        List<Map<String, String>> combinations = new ArrayList<>(List.of(new LinkedHashMap<>()));
        choices.forEach((name, values) -> {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : combinations) {
                for (String value : values) {
                    Map<String, String> extended = new LinkedHashMap<>(partial);
                    extended.put(name, value);
                    next.add(extended);
                }
            }
            combinations.clear();
            combinations.addAll(next);
        });
        return combinations;
    }
}
