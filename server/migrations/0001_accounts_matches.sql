-- The first schema: accounts, sessions, challenges, matches with their seats and moves, stats.
-- One text for SQLite and PostgreSQL: basic types only, ids made by the server (53-bit, so that
-- JavaScript keeps them), times in Unix milliseconds, JSON as TEXT.
-- The card economy (collections, decks, stakes) adds its own tables that refer to users(id) and
-- matches(id); a match's seats are rows, so a seat can gain its deck and stake columns.

CREATE TABLE users (
    id BIGINT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL,
    -- The name folded to lower case: names are unique regardless of case.
    name_key TEXT NOT NULL UNIQUE,
    -- Argon2id in PHC string form.
    password_hash TEXT NOT NULL,
    created BIGINT NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 of the token, hex: the token itself is never stored.
    token_hash TEXT NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    created BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE challenges (
    id BIGINT NOT NULL PRIMARY KEY,
    by_user BIGINT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    -- The options as given (JSON), checked when the challenge was made.
    options TEXT NOT NULL,
    -- The seats (JSON array: kind, name / level, and the user who took it).
    seats TEXT NOT NULL,
    time_s BIGINT NOT NULL,
    -- 1: no spectators, not listed (booleans are 0 or 1: one type on both databases).
    private BIGINT NOT NULL,
    -- open, started, refused or withdrawn.
    status TEXT NOT NULL,
    created BIGINT NOT NULL,
    match_id BIGINT
);
CREATE INDEX challenges_status ON challenges (status);

CREATE TABLE matches (
    id BIGINT NOT NULL PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    -- The generator's seed (a u64 stored by its bits): it never leaves the server.
    seed BIGINT NOT NULL,
    time_s BIGINT NOT NULL,
    -- 1: no spectators, not listed (booleans are 0 or 1: one type on both databases).
    private BIGINT NOT NULL,
    -- running or over.
    status TEXT NOT NULL,
    -- Moves played; the state is the seed and the moves replayed.
    ply BIGINT NOT NULL,
    -- When the clock of the seat to act runs out (NULL once over).
    deadline BIGINT,
    -- The result (JSON), once over.
    result TEXT,
    challenge_id BIGINT,
    started BIGINT NOT NULL,
    ended BIGINT
);
CREATE INDEX matches_status ON matches (status);

CREATE TABLE match_seats (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    seat BIGINT NOT NULL,
    -- A person, or NULL for a computer player of `level`.
    user_id BIGINT REFERENCES users (id),
    level TEXT,
    -- won, lost, drawn or dnf, once over.
    outcome TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_user ON match_seats (user_id);

CREATE TABLE moves (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    -- The match's ply once this move is played (1 for the first move).
    ply BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    -- The move in the game's notation.
    notation TEXT NOT NULL,
    -- Played by the server for a seat whose clock ran out.
    timeout BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (match_id, ply)
);

CREATE TABLE stats (
    user_id BIGINT NOT NULL REFERENCES users (id),
    game TEXT NOT NULL,
    played BIGINT NOT NULL,
    won BIGINT NOT NULL,
    lost BIGINT NOT NULL,
    drawn BIGINT NOT NULL,
    dnf BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
