-- Learners, known by the id in their signed cookie. A row is made on their first durable write.
CREATE TABLE learner (
    id           VARCHAR(64)  NOT NULL PRIMARY KEY,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    display_name VARCHAR(100)
);

-- Secrets the app generates once and shares between restarts and replicas (the cookie signing key).
CREATE TABLE app_secret (
    name       VARCHAR(64)   NOT NULL PRIMARY KEY,
    secret     VARCHAR(200)  NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
