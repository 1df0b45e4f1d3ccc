package dev.tclab.quiz;

import dev.tclab.yaml.FileProblem;
import dev.tclab.yaml.YamlChecks;
import dev.tclab.yaml.YamlException;
import dev.tclab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Reads the YAML body of a {@code quiz} block, reporting every problem with file, line and field. */
public final class QuizParser {

    /** Quiz ids end up in URLs and HTML ids. */
    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** The keys read; tests hold docs/schema/quiz.schema.json to the same lists. */
    static final List<String> KEYS = List.of("id", "question", "multiple", "options");
    static final List<String> OPTION_KEYS = List.of("text", "correct", "why");

    /** The quiz, or the problems that stop it from being one. */
    public record Result(Quiz quiz, List<FileProblem> problems) {
    }

    private QuizParser() {
    }

    /**
     * @param line the file line of the block's first YAML line
     */
    public static Result parse(String file, int line, String yaml) {
        YamlNode root;
        try {
            root = YamlNode.parse(file, "the quiz block", yaml, line);
        } catch (YamlException e) {
            return new Result(null, List.of(e.problem()));
        }
        YamlChecks checks = new YamlChecks();
        if (!root.isMap()) {
            checks.add(root, "a quiz is a YAML mapping with id, question and options");
            return new Result(null, checks.problems());
        }
        checks.onlyKeys(root, KEYS);
        String id = checks.text(root, "id", null, true);
        checks.require(root.get("id"), id, ID.asMatchPredicate(), "lowercase letters, digits and '-'");
        String question = checks.text(root, "question", "", true);
        boolean multiple = checks.bool(root, "multiple", false);
        List<Quiz.Option> options = new ArrayList<>();
        for (YamlNode option : checks.list(root, "options", true)) {
            readOption(checks, option, options);
        }
        checkAnswers(checks, root, options, multiple);
        return checks.ok() ? new Result(new Quiz(id, question, multiple, options), List.of())
                : new Result(null, checks.problems());
    }

    private static void readOption(YamlChecks checks, YamlNode option, List<Quiz.Option> options) {
        if (!option.isMap()) {
            checks.add(option, "an option is a mapping with text, correct (optional) and why");
            return;
        }
        checks.onlyKeys(option, OPTION_KEYS);
        String text = checks.text(option, "text", "", true);
        boolean correct = checks.bool(option, "correct", false);
        String why = checks.text(option, "why", "", false);
        if (why.isBlank()) {
            checks.add(option, "every option needs a 'why': the explanation the learner sees after choosing it");
        }
        options.add(new Quiz.Option(text, correct, why));
    }

    private static void checkAnswers(YamlChecks checks, YamlNode root, List<Quiz.Option> options, boolean multiple) {
        YamlNode at = root.get("options") == null ? root : root.get("options");
        if (root.get("options") != null && options.size() < 2) {
            checks.add(at, "a quiz needs at least two options, found " + options.size());
        }
        long correct = options.stream().filter(Quiz.Option::correct).count();
        if (!options.isEmpty() && correct == 0) {
            checks.add(at, "no option is marked 'correct: true'");
        }
        if (!multiple && correct > 1) {
            checks.add(at, correct + " options are correct but 'multiple' is false: mark one, or set 'multiple: true'");
        }
    }
}
