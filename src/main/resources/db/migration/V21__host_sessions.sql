-- Host sign-ins, so that signing out (or a password change) ends a session on the server, not only in the browser:
-- a host cookie is honoured only while its session id is here and not past expires_at.
CREATE TABLE host_session (
    id         VARCHAR(64) NOT NULL PRIMARY KEY,
    host_name  VARCHAR(32) NOT NULL REFERENCES host_account (name),
    expires_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX host_session_by_host ON host_session (host_name);
