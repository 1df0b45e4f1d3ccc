-- Each learner's tally of one step's check runs, kept as runs start and finish: the class dashboard, the host's
-- "last check" and the export read it, so attempt counts and first pass times stay the same when old runs are
-- pruned (CheckRunRetention). last_run_id is the step's newest run, which pruning never deletes.
CREATE TABLE step_run_tally (
    learner_id      VARCHAR(64)   NOT NULL REFERENCES learner (id),
    lesson          VARCHAR(200)  NOT NULL,
    step_id         VARCHAR(200)  NOT NULL,
    attempts        INTEGER       NOT NULL,
    first_run_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    first_passed_at TIMESTAMP WITH TIME ZONE,
    last_run_id     VARCHAR(64)   NOT NULL,
    last_lab_id     VARCHAR(64)   NOT NULL,
    last_state      VARCHAR(20)   NOT NULL,
    last_detail     VARCHAR(2000) NOT NULL,
    last_at         TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (learner_id, lesson, step_id)
);
CREATE INDEX step_run_tally_by_last_run ON step_run_tally (last_run_id);

-- The tally of the runs kept so far: the same figures the runs gave when they were counted on every read.
INSERT INTO step_run_tally (learner_id, lesson, step_id, attempts, first_run_at, first_passed_at, last_run_id,
                            last_lab_id, last_state, last_detail, last_at)
SELECT r.learner_id, r.lesson, r.step_id, a.attempts, a.first_run_at, a.first_passed_at, r.id, r.lab_id, r.state,
       r.detail, COALESCE(r.finished_at, r.started_at)
FROM check_run r
JOIN (SELECT learner_id, lesson, step_id, COUNT(*) AS attempts, MIN(started_at) AS first_run_at,
             MIN(CASE WHEN state = 'passed' THEN COALESCE(finished_at, started_at) END) AS first_passed_at
      FROM check_run GROUP BY learner_id, lesson, step_id) a
  ON a.learner_id = r.learner_id AND a.lesson = r.lesson AND a.step_id = r.step_id
WHERE r.id = (SELECT n.id FROM check_run n
              WHERE n.learner_id = r.learner_id AND n.lesson = r.lesson AND n.step_id = r.step_id
              ORDER BY n.started_at DESC, n.id DESC FETCH FIRST 1 ROWS ONLY);

-- Pruning finds each step's runs newest first, and runs past the retention age, without reading the whole table.
CREATE INDEX check_run_by_step ON check_run (learner_id, lesson, step_id, started_at);
CREATE INDEX check_run_by_start ON check_run (started_at);
