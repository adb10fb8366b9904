-- Triple Triad's card economy: balances, every physical card with its one owner, decks of
-- physical cards, custom cards, the stakes of matches, and a ledger of every card and point
-- created, spent or moved (the invariant checks sum it). Same text for SQLite and PostgreSQL.

CREATE TABLE tt_wallets (
    user_id BIGINT NOT NULL PRIMARY KEY REFERENCES users (id),
    points BIGINT NOT NULL CHECK (points >= 0),
    experience BIGINT NOT NULL CHECK (experience >= 0),
    gils BIGINT NOT NULL CHECK (gils >= 0),
    -- When the starter collection was taken (NULL: not yet): once per player.
    starter BIGINT,
    -- The deck (its name folded to lower case) that +TT/Deck Add and Rem change by default.
    current_deck TEXT
);

-- Custom cards join the shop's database: the card as JSON (arbiter_core's ShopCard).
CREATE TABLE tt_custom_cards (
    card_id TEXT NOT NULL PRIMARY KEY,
    name_key TEXT NOT NULL UNIQUE,
    card TEXT NOT NULL,
    creator BIGINT NOT NULL REFERENCES users (id),
    created BIGINT NOT NULL
);

-- One row per physical card: a card is in exactly one stash, its owner's.
CREATE TABLE tt_cards (
    id BIGINT NOT NULL PRIMARY KEY,
    -- The shop's id of the card (A001, C003).
    card_id TEXT NOT NULL,
    owner BIGINT NOT NULL REFERENCES users (id),
    -- The match it is at stake in, while that match is not settled.
    locked_by BIGINT,
    acquired BIGINT NOT NULL
);
CREATE INDEX tt_cards_owner ON tt_cards (owner, card_id);

CREATE TABLE tt_decks (
    id BIGINT NOT NULL PRIMARY KEY,
    owner BIGINT NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    -- Why cards left the deck (lost in a match), shown by the deck check until it is full again.
    note TEXT,
    created BIGINT NOT NULL,
    UNIQUE (owner, name_key)
);

-- A physical card is in at most one deck.
CREATE TABLE tt_deck_cards (
    deck_id BIGINT NOT NULL REFERENCES tt_decks (id),
    slot BIGINT NOT NULL,
    card BIGINT NOT NULL UNIQUE REFERENCES tt_cards (id),
    PRIMARY KEY (deck_id, slot)
);

-- The deck each person accepts a challenge with stakes with (the challenger's is in its options).
CREATE TABLE tt_seat_decks (
    challenge_id BIGINT NOT NULL REFERENCES challenges (id),
    user_id BIGINT NOT NULL REFERENCES users (id),
    deck TEXT NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);

-- What a Triple Triad match puts at stake, and how its end went.
CREATE TABLE tt_stakes (
    -- The match (its row is written after the stake, in the same transaction: no foreign key).
    match_id BIGINT NOT NULL PRIMARY KEY,
    -- The winner rule (arbiter_core's TradeRule name) and whose customs (mush, ttonline).
    trade TEXT NOT NULL,
    customs TEXT NOT NULL,
    -- Gils each player bet (held from both balances until the end).
    bet BIGINT NOT NULL,
    -- The physical cards each seat brought, JSON [[5 ids], [5 ids]] (empty for a computer).
    cards TEXT NOT NULL,
    blue_user BIGINT REFERENCES users (id),
    red_user BIGINT REFERENCES users (id),
    -- running, choosing (the winner picks before choice_deadline) or settled.
    status TEXT NOT NULL,
    choice_deadline BIGINT,
    -- Once settled: the cards that moved, JSON [{"card": id, "card_id": "A001", "from": user, "to": user}].
    transfers TEXT,
    settled BIGINT,
    -- While choosing: the core's match as saved (seed included; it never leaves the server).
    saved TEXT
);
CREATE INDEX tt_stakes_status ON tt_stakes (status);

-- Every change of a balance or of a card's owner, for the invariant: kinds starter, purchase,
-- custom (cards created), reward, bet, payout, trade_in, trade_out (cards and points moved).
CREATE TABLE tt_ledger (
    id BIGINT NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL,
    points BIGINT NOT NULL,
    cards BIGINT NOT NULL,
    experience BIGINT NOT NULL,
    gils BIGINT NOT NULL,
    match_id BIGINT,
    card BIGINT,
    at BIGINT NOT NULL
);
CREATE INDEX tt_ledger_user ON tt_ledger (user_id);
