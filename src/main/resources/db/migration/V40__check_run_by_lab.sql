-- A reloaded lesson page asks for the newest finished run of each step in its lab (GET /api/labs/{id}/steps).
CREATE INDEX check_run_by_lab_step ON check_run (lab_id, learner_id, step_id, started_at);
