-- The picking window of a Triple Triad game between people (status `picking`): when it ends, in
-- milliseconds since the epoch; NULL for every other challenge.
ALTER TABLE challenges ADD COLUMN pick_until BIGINT;
