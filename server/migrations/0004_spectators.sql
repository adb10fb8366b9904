-- The text game's spectating options for challenges and running matches: besides private (no
-- spectators), broadcast (every card played is shown to the whole lobby). +TT/Option and the
-- WebSocket's `spectators` request change a running match's, so both are stored with it.
-- A boolean as 0 or 1, as `private`: one type on both databases.

ALTER TABLE challenges ADD COLUMN broadcast BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN broadcast BIGINT NOT NULL DEFAULT 0;
