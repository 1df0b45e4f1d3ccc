package dev.tclab.lab;

import java.util.List;

/**
 * The answer (409) to starting a lesson's lab while the learner's lab of another lesson runs, with one lab per
 * learner: the same fields as every API error, plus the lab that runs, so the page can offer to stop it.
 */
public record LabConflict(String error, List<String> problems, Running running) {

    /** The learner's running lab: its id, its lesson's slug and title. */
    public record Running(String id, String lesson, String title) {}
}
