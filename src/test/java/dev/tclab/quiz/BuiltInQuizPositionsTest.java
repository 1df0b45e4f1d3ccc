package dev.tclab.quiz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A quiz whose right answer is nearly always at one position can be answered without reading it: in every built-in
 * lesson, no position holds the right answer of more than half of its single-choice quizzes.
 */
class BuiltInQuizPositionsTest {

    private static final Path LESSONS = Path.of("src/main/resources/lessons");
    private static final Pattern QUIZ = Pattern.compile("```quiz\\n(.*?)```", Pattern.DOTALL);

    @Test
    void noPositionHoldsTheRightAnswerOfMoreThanHalfALessonsQuizzes() throws IOException {
        List<Path> lessons;
        try (Stream<Path> dirs = Files.list(LESSONS)) {
            lessons = dirs.filter(Files::isDirectory).sorted().toList();
        }
        assertThat(lessons).hasSizeGreaterThanOrEqualTo(4);
        for (Path lesson : lessons) {
            List<Quiz> quizzes = singleChoiceQuizzes(lesson);
            assertThat(quizzes).as("%s has single-choice quizzes", lesson).isNotEmpty();
            Map<Integer, Integer> byPosition = new TreeMap<>();
            for (Quiz quiz : quizzes) {
                byPosition.merge(quiz.correctChoices().get(0), 1, Integer::sum);
            }
            int most = byPosition.values().stream().max(Integer::compare).orElseThrow();
            assertThat(most)
                    .as(
                            "%s: right answers by position (0 = first) %s of %d single-choice quizzes",
                            lesson.getFileName(), byPosition, quizzes.size())
                    .isLessThanOrEqualTo(quizzes.size() / 2);
        }
    }

    private static List<Quiz> singleChoiceQuizzes(Path lesson) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(lesson)) {
            files = walk.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        List<Quiz> quizzes = new ArrayList<>();
        for (Path file : files) {
            Matcher block = QUIZ.matcher(Files.readString(file));
            while (block.find()) {
                QuizParser.Result parsed = QuizParser.parse(file.toString(), 1, block.group(1));
                assertThat(parsed.problems()).as("%s parses", file).isEmpty();
                if (!parsed.quiz().multiple()) {
                    quizzes.add(parsed.quiz());
                }
            }
        }
        return quizzes;
    }
}
