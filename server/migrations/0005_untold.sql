-- What a player has not been told yet of their matches' ends: the `match_over` frame of each
-- match and the `tt_settled` frame of each settlement of its stakes, as they were first sent.
-- A row is written in the transaction that ends the match (or settles the winner's choice), so no
-- crash between that commit and the frame loses it, and deleted when the frame is written to one
-- of the player's connections, whichever process holds it, or handed over at login or resume. The
-- frame itself is kept, not rebuilt: the settlement's kept cards are stored nowhere else, and a
-- frame sent again is then the frame the others got. Matches that ended before this migration
-- have no rows: nobody kept track of who heard of them.
-- Same text for SQLite and PostgreSQL.

CREATE TABLE untold (
    user_id BIGINT NOT NULL REFERENCES users (id),
    match_id BIGINT NOT NULL REFERENCES matches (id),
    -- The frame's type: match_over or tt_settled.
    kind TEXT NOT NULL,
    -- The frame (JSON).
    frame TEXT NOT NULL,
    -- When it was first sent (Unix ms): the order it is sent again in.
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, match_id, kind)
);
