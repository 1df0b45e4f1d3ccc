package dev.tclab.workshop;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** An event's results: one row per learner and graded step or quiz, with pass time and attempt count. */
@ApplicationScoped
public class EventExport {

    /**
     * One result.
     *
     * @param kind     step or quiz
     * @param passedAt when the step first passed or the quiz was first answered right; null: not yet
     */
    public record Line(
            String name,
            String learnerId,
            String lesson,
            String kind,
            String item,
            boolean passed,
            Instant passedAt,
            int attempts) {}

    private final WorkshopService workshops;
    private final ClassDashboard dashboard;
    private final ProgressReader progress;

    public EventExport(WorkshopService workshops, ClassDashboard dashboard, ProgressReader progress) {
        this.workshops = workshops;
        this.dashboard = dashboard;
        this.progress = progress;
    }

    public List<Line> lines(WorkshopEvent event) {
        List<Seat> seats = workshops.seats(event.id());
        List<String> ids = seats.stream().map(Seat::learnerId).toList();
        Map<String, ProgressReader.StepRuns> steps = progress.steps(ids, event.lessons()).stream()
                .collect(Collectors.toMap(
                        r -> r.learnerId() + "\n" + r.lesson() + "\n" + r.stepId(), Function.identity(), (a, b) -> b));
        Map<String, ProgressReader.QuizAnswers> quizzes = progress.quizzes(ids, event.lessons()).stream()
                .collect(Collectors.toMap(
                        r -> r.learnerId() + "\n" + r.lesson() + "\n" + r.quizId(), Function.identity(), (a, b) -> b));
        List<ClassDashboard.GradedStep> graded = dashboard.gradedSteps(event);
        List<String[]> quizIds = dashboard.quizzes(event);
        List<Line> lines = new ArrayList<>();
        for (Seat seat : seats) {
            for (ClassDashboard.GradedStep s : graded) {
                ProgressReader.StepRuns r = steps.get(seat.learnerId() + "\n" + s.lesson() + "\n" + s.stepId());
                lines.add(new Line(
                        seat.displayName(),
                        seat.learnerId(),
                        s.lesson(),
                        "step",
                        s.stepId(),
                        r != null && r.firstPassedAt() != null,
                        r == null ? null : r.firstPassedAt(),
                        r == null ? 0 : r.attempts()));
            }
            for (String[] q : quizIds) {
                ProgressReader.QuizAnswers a = quizzes.get(seat.learnerId() + "\n" + q[0] + "\n" + q[1]);
                lines.add(new Line(
                        seat.displayName(),
                        seat.learnerId(),
                        q[0],
                        "quiz",
                        q[1],
                        a != null && a.firstCorrectAt() != null,
                        a == null ? null : a.firstCorrectAt(),
                        a == null ? 0 : a.attempts()));
            }
        }
        return lines;
    }

    /** RFC 4180 CSV; a cell starting with = + - @ is prefixed with ' so a spreadsheet never runs it as a formula. */
    public String csv(List<Line> lines) {
        StringBuilder out = new StringBuilder("name,learner_id,lesson,kind,item,passed,passed_at,attempts\r\n");
        for (Line l : lines) {
            out.append(cell(l.name()))
                    .append(',')
                    .append(cell(l.learnerId()))
                    .append(',')
                    .append(cell(l.lesson()))
                    .append(',')
                    .append(l.kind())
                    .append(',')
                    .append(cell(l.item()))
                    .append(',')
                    .append(l.passed())
                    .append(',')
                    .append(l.passedAt() == null ? "" : l.passedAt().toString())
                    .append(',')
                    .append(l.attempts())
                    .append("\r\n");
        }
        return out.toString();
    }

    private static String cell(String value) {
        String v = value == null ? "" : value;
        if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v;
        }
        return v.matches(".*[\",\r\n].*") || v.contains("\n") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }
}
