-- Every lab this server started, so a restarted server adopts the running ones and reaps only the rest.
-- version grows with every phase change; a write carrying an older version is ignored.
CREATE TABLE lab (
    id            VARCHAR(32)   NOT NULL PRIMARY KEY,
    owner         VARCHAR(64)   NOT NULL,
    lesson        VARCHAR(100)  NOT NULL,
    parameters    VARCHAR(4000) NOT NULL,
    phase         VARCHAR(16)   NOT NULL,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    ready_at      TIMESTAMP WITH TIME ZONE,
    last_activity TIMESTAMP WITH TIME ZONE NOT NULL,
    ended_at      TIMESTAMP WITH TIME ZONE,
    reason        VARCHAR(1000),
    version       BIGINT        NOT NULL
);

CREATE INDEX lab_phase ON lab (phase);
CREATE INDEX lab_owner ON lab (owner);
