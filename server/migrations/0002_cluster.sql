-- Several processes on one PostgreSQL database (src/cluster). Created on SQLite too, where one
-- process serves alone and the tables stay empty: one list of migrations for both databases.

-- Events too large for a NOTIFY payload (8000 bytes): the notification carries the id, and the
-- row is deleted a minute later.
CREATE TABLE cluster_events (
    id BIGINT NOT NULL PRIMARY KEY,
    body TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX cluster_events_at ON cluster_events (at);

-- Who is online through which process, so that a process started later knows the lobby; the
-- rows of a process that died are dropped by the others once its node lock is gone.
CREATE TABLE cluster_presence (
    node BIGINT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    PRIMARY KEY (node, user_id)
);
