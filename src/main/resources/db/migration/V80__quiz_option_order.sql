-- The order each learner answered a quiz's options in (the author's option indexes by shown position, "2,0,1"):
-- the quiz keeps that order for them. Unanswered quizzes have no row; their order is derived from a kept key.
CREATE TABLE quiz_option_order (
    learner_id VARCHAR(64)  NOT NULL REFERENCES learner (id),
    lesson     VARCHAR(200) NOT NULL,
    quiz_id    VARCHAR(200) NOT NULL,
    shown      VARCHAR(1000) NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (learner_id, lesson, quiz_id)
);
