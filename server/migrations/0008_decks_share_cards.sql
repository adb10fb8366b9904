-- Decks are lists (« When putting cards in a Deck, they are not removed from your stash »): a
-- physical card may be in several decks, once in each. Only a card at stake is locked
-- (tt_cards.locked_by). SQLite cannot drop a constraint: the table is rebuilt, its rows kept.
-- (Numbered 0008: 0007 is the language lane's.)
CREATE TABLE tt_deck_cards_lists (
    deck_id BIGINT NOT NULL REFERENCES tt_decks (id),
    slot BIGINT NOT NULL,
    card BIGINT NOT NULL REFERENCES tt_cards (id),
    PRIMARY KEY (deck_id, slot),
    UNIQUE (deck_id, card)
);
INSERT INTO tt_deck_cards_lists (deck_id, slot, card) SELECT deck_id, slot, card FROM tt_deck_cards;
DROP TABLE tt_deck_cards;
ALTER TABLE tt_deck_cards_lists RENAME TO tt_deck_cards;
CREATE INDEX tt_deck_cards_card ON tt_deck_cards (card);
