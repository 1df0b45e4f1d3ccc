package dev.tclab.quiz;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlSchema;
import java.util.List;

/**
 * Reads the YAML body of a {@code quiz} block against docs/schema/quiz.schema.json (which also holds the number of
 * correct options), reporting every problem with file, line and field.
 */
public final class QuizParser {

    static final YamlSchema SCHEMA = YamlSchema.load("quiz.schema.json");

    /** The quiz, or the problems that stop it from being one. */
    public record Result(Quiz quiz, List<FileProblem> problems) {}

    /** A quiz block as written; {@code multiple} and {@code correct} may be true/false or yes/no. */
    record QuizFile(String id, String question, String multiple, List<OptionFile> options) {}

    record OptionFile(String text, String correct, String why) {}

    private QuizParser() {}

    /**
     * @param line the file line of the block's first YAML line
     */
    public static Result parse(String file, int line, String yaml) {
        QuizFile quiz;
        try {
            quiz = SCHEMA.read(file, "the quiz block", yaml, line).bind("", QuizFile.class);
        } catch (YamlException e) {
            return new Result(null, e.problems());
        }
        List<Quiz.Option> options = quiz.options().stream()
                .map(o -> new Quiz.Option(o.text(), yes(o.correct()), o.why()))
                .toList();
        return new Result(new Quiz(quiz.id(), quiz.question(), yes(quiz.multiple()), options), List.of());
    }

    private static boolean yes(String flag) {
        return "true".equals(flag) || "yes".equals(flag);
    }
}
