package dev.tclab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tclab.yaml.PublishedSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The published docs/schema/quiz.schema.json accepts every quiz block QuizParser accepts, reports every structural
 * problem of a bad one at once with its line, and allows exactly the keys QuizParser reads.
 */
class QuizSchemaTest {

    private static final PublishedSchema SCHEMA = new PublishedSchema("quiz.schema.json");
    private static final Pattern QUIZ_BLOCK = Pattern.compile("(?sm)^```quiz[^\\n]*\\n(.*?)^```");
    private static final Pattern PARAMETER = Pattern.compile("\\{\\{\\s*[A-Za-z0-9_-]+\\s*}}");

    @Test
    void shouldAcceptEveryQuizTheParserAcceptsInTheLessonsAndTheAuthorsGuide() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("docs/authoring.md")));
        for (String root : List.of("src/main/resources/lessons", "src/test/resources/lessons")) {
            try (Stream<Path> walk = Files.walk(Path.of(root))) {
                walk.filter(p -> p.toString().endsWith(".md")).forEach(files::add);
            }
        }
        int accepted = 0;
        for (Path file : files.stream().sorted().toList()) {
            Matcher m = QUIZ_BLOCK.matcher(Files.readString(file));
            while (m.find()) {
                // Parameters are substituted before a quiz is read; any number stands in for one here.
                String yaml = PARAMETER.matcher(m.group(1)).replaceAll("1");
                if (QuizParser.parse(file.toString(), 1, yaml).problems().isEmpty()) {
                    accepted++;
                    assertThat(SCHEMA.problems(yaml)).as(file + ":\n" + yaml).isEmpty();
                }
            }
        }
        assertThat(accepted).as("quizzes the parser accepts").isGreaterThanOrEqualTo(10);
    }

    @Test
    void shouldReportEveryProblemOfABadQuizAtOnceWithItsLine() {
        List<String> problems = SCHEMA.problems("""
                id: Burst Unit
                multiple: sometimes
                options:
                  - text: 32 kilobytes
                    correct: yes please
                  - text: 32 kilobits
                    why: ""
                    hint: no
                """);
        assertThat(problems).anyMatch(p -> p.startsWith("1: ") && p.contains("id"));
        assertThat(problems).anyMatch(p -> p.contains("question"));
        assertThat(problems).anyMatch(p -> p.startsWith("2: ") && p.contains("multiple"));
        assertThat(problems).anyMatch(p -> p.startsWith("4: ") && p.contains("why"));
        assertThat(problems).anyMatch(p -> p.startsWith("5: ") && p.contains("correct"));
        assertThat(problems).anyMatch(p -> p.startsWith("7: ") && p.contains("why"));
        assertThat(problems).anyMatch(p -> p.startsWith("6: ") && p.contains("hint"));
    }

    @Test
    void shouldRequireOneCorrectOptionUnlessMultiple() {
        String two = """
                id: q
                question: Which?
                %s
                options:
                  - { text: a, correct: true, why: x }
                  - { text: b, correct: true, why: y }
                """;
        assertThat(SCHEMA.problems(two.formatted(""))).anyMatch(p -> p.contains("options"));
        assertThat(SCHEMA.problems(two.formatted("multiple: true"))).isEmpty();
        assertThat(SCHEMA.problems("""
                id: q
                question: Which?
                options:
                  - { text: a, why: x }
                  - { text: b, why: y }
                """)).anyMatch(p -> p.startsWith("4: ") && p.contains("options"));
    }

    /** Each of these has one problem the parser refuses; the schema must find it too (it is not looser there). */
    @Test
    void shouldRefuseEachQuizTheParserRefuses() {
        String base = """
                id: burst-unit
                question: What is 32kb?
                multiple: false
                options:
                  - { text: 32 kilobytes, correct: true, why: tc reads kb as kilobytes }
                  - { text: 32 kilobits, why: that is 32kbit }
                """;
        assertThat(QuizParser.parse("q", 1, base).problems())
                .as("the base quiz is good")
                .isEmpty();
        assertThat(SCHEMA.problems(base)).isEmpty();
        List<String> bad = List.of(
                base.replace("id: burst-unit", "id: Burst Unit"),
                base.replace("id: burst-unit\n", ""),
                base.replace("question: What is 32kb?\n", ""),
                base.replace("multiple: false", "multiple: maybe"),
                base.replace("multiple: false", "multiple: false\nhint: none"),
                base.replace(", correct: true", ""),
                base.replace("why: that is 32kbit", "correct: true, why: that is 32kbit"),
                base.replace(", why: that is 32kbit", ""),
                base.replace("why: that is 32kbit", "why: \"  \""),
                base.replace("why: that is 32kbit", "why: that is 32kbit, score: 1"),
                base.replace("correct: true", "correct: sure"),
                base.substring(0, base.indexOf("  - { text: 32 kilobits")),
                base.replace("options:", "answers:"));
        for (String quiz : bad) {
            assertThat(QuizParser.parse("q", 1, quiz).problems())
                    .as("the parser refuses:\n" + quiz)
                    .isNotEmpty();
            assertThat(SCHEMA.problems(quiz)).as("the schema refuses:\n" + quiz).isNotEmpty();
        }
    }

    @Test
    void shouldBindExactlyTheKeysTheSchemaAllows() {
        assertThat(PublishedSchema.boundKeys(QuizParser.QuizFile.class)).isEqualTo(SCHEMA.keys(""));
        assertThat(PublishedSchema.boundKeys(QuizParser.OptionFile.class)).isEqualTo(SCHEMA.keys("/$defs/option"));
    }

    @Test
    void shouldDescribeEveryPropertyForEditors() {
        assertThat(SCHEMA.undescribedProperties()).isEmpty();
    }
}
