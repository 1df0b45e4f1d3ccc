package dev.tclab.grading.run;

import dev.tclab.grading.spec.CheckSpecException;
import dev.tclab.grading.spec.CheckSpecParser;
import dev.tclab.lesson.LessonView;
import dev.tclab.lesson.markdown.BlockContext.CheckRef;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which step of a lesson records each baseline ({@code record:}), so a learner whose lab lacks one is told which
 * Check to press. Baselines belong to a lab while step progress belongs to the learner: a new lab starts without
 * the figures an earlier lab measured.
 */
public final class BaselineSteps {

    /** For checks run outside a lesson: the recording step is not known. */
    public static final BaselineSteps UNKNOWN = new BaselineSteps(Map.of());

    private final Map<String, Integer> stepByBaseline;

    private BaselineSteps(Map<String, Integer> stepByBaseline) {
        this.stepByBaseline = Map.copyOf(stepByBaseline);
    }

    /** For checks run outside a lesson page that know which step records each baseline, by name. */
    static BaselineSteps of(Map<String, Integer> stepByBaseline) {
        return new BaselineSteps(stepByBaseline);
    }

    /** The steps numbered as the lesson page numbers them (from 1); the first step recording a name wins. */
    public static BaselineSteps of(List<LessonView.StepView> steps) {
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            for (CheckRef check : steps.get(i).checks()) {
                for (String name : recorded(check)) {
                    byName.putIfAbsent(name, i + 1);
                }
            }
        }
        return new BaselineSteps(byName);
    }

    private static Set<String> recorded(CheckRef check) {
        try {
            return CheckSpecParser.parse(check.file(), check.yaml(), check.line())
                    .record()
                    .keySet();
        } catch (CheckSpecException e) {
            // Validation keeps such lessons out of reach; a check that does not parse records nothing.
            return Set.of();
        }
    }

    /** The step (numbered from 1) whose check records each baseline, by name. */
    public Map<String, Integer> byName() {
        return stepByBaseline;
    }

    /** One sentence for a learner whose lab has none of {@code names}: what the check needs and what to press. */
    String explainMissing(Collection<String> names) {
        List<Integer> recordedBy = names.stream().map(stepByBaseline::get).toList();
        if (recordedBy.contains(null)) {
            List<String> paths = names.stream().map(n -> "baseline." + n).toList();
            return "This check compares with " + String.join(" and ", paths) + ", which an earlier step's check "
                    + "records, and this lab has none yet (a new lab starts without it): press Check on that step "
                    + "again, then here.";
        }
        List<String> steps =
                recordedBy.stream().distinct().sorted().map(n -> "step " + n).toList();
        String where = String.join(" and ", steps);
        String checks = steps.size() == 1 ? where + "'s check" : "the checks of " + where;
        return "This check compares with what " + checks + " measured, and this lab has no such figure yet (a new "
                + "lab starts without it): press Check on " + where + " again, then here.";
    }
}
