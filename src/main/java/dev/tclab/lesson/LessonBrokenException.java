package dev.tclab.lesson;

import dev.tclab.yaml.FileProblem;
import java.util.List;

/** The lesson exists but is broken, so it cannot be taken until its author fixes it. */
public class LessonBrokenException extends Exception {

    private final List<FileProblem> problems;

    public LessonBrokenException(Lesson lesson) {
        super("Lesson '" + lesson.slug() + "' is broken; its author needs to fix "
                + lesson.problems().size() + " problem(s).");
        this.problems = lesson.problems();
    }

    public List<FileProblem> problems() {
        return problems;
    }
}
