-- Which process of a cluster owns a running match (src/cluster/ownership.rs): its node id, or
-- NULL when no process ever took it. A process is alive while it holds the advisory lock of its
-- node key; the others take the running matches of a node that is gone. One column instead of a
-- lock per match: PostgreSQL's lock table holds a few thousand locks per connection at most.
-- On SQLite (one process) it stays NULL.
ALTER TABLE matches ADD COLUMN owner BIGINT;
CREATE INDEX matches_owner ON matches (owner);
