-- The MUSH's series A has no character card and three of FF8's monsters are replaced (the
-- economy's series_a.rs: `REPLACED`, listed in server/README.md). Each replacement keeps the number,
-- level, ranks and element of the card it replaces, so every physical card keeps its row, its owner,
-- its id (A110) and its decks: a copy of Squall is a copy of Omega Weapon from now on, and no count
-- changes. What follows renames the removed cards where their names are stored:
-- - custom cards whose name a new card of series A takes get their id after their name
--   ("Goblin" becomes "Goblin (C001)"): two cards never share a name;
-- - the cards of the matches whose stakes are not settled (their options' hands, and the saved
--   match of a winner's choice), which the settlement finds in the shop by name;
-- - what players have not yet been told of a settlement, and the notes of decks that lost a card.
-- Finished matches keep the cards they were played with. The server's test
-- `mush_series_a_migration` checks this text against `REPLACED`. Same text for SQLite and
-- PostgreSQL (a JSON value written by serde_json: no space after a colon; a custom card's JSON
-- starts with its id and its name, 29 characters before the name).

UPDATE tt_custom_cards
SET card = SUBSTR(card, 1, 29 + LENGTH(name_key)) || ' (' || card_id || ')' || SUBSTR(card, 30 + LENGTH(name_key)),
    name_key = name_key || ' (' || LOWER(card_id) || ')'
WHERE SUBSTR(card, 1, 29) = '{"id":"' || card_id || '","card":{"name":"'
  AND name_key IN ('goblin', 'flan', 'coeurl', 'zu', 'ahriman', 'mindflayer', 'ramuh', 'emerald weapon', 'ruby weapon', 'diamond weapon', 'sapphire weapon', 'kaiser dragon', 'ozma', 'hades', 'ark', 'knights of the round', 'shinryu', 'omega weapon');

UPDATE matches SET options = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(options,
    '"name":"Gesper"', '"name":"Goblin"'),
    '"name":"Jelleye"', '"name":"Flan"'),
    '"name":"Elastoid"', '"name":"Coeurl"'),
    '"name":"Biggs, Wedge"', '"name":"Zu"'),
    '"name":"Fujin, Raijin"', '"name":"Ahriman"'),
    '"name":"Shumi Tribe"', '"name":"Mindflayer"'),
    '"name":"Angelo"', '"name":"Ramuh"'),
    '"name":"Ward"', '"name":"Emerald Weapon"'),
    '"name":"Kiros"', '"name":"Ruby Weapon"'),
    '"name":"Laguna"', '"name":"Diamond Weapon"'),
    '"name":"Selphie"', '"name":"Sapphire Weapon"'),
    '"name":"Quistis"', '"name":"Kaiser Dragon"'),
    '"name":"Irvine"', '"name":"Ozma"'),
    '"name":"Zell"', '"name":"Hades"'),
    '"name":"Rinoa"', '"name":"Ark"'),
    '"name":"Edea"', '"name":"Knights of the Round"'),
    '"name":"Seifer"', '"name":"Shinryu"'),
    '"name":"Squall"', '"name":"Omega Weapon"')
WHERE id IN (SELECT match_id FROM tt_stakes WHERE status <> 'settled');

UPDATE tt_stakes SET saved = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(saved,
    '"name":"Gesper"', '"name":"Goblin"'),
    '"name":"Jelleye"', '"name":"Flan"'),
    '"name":"Elastoid"', '"name":"Coeurl"'),
    '"name":"Biggs, Wedge"', '"name":"Zu"'),
    '"name":"Fujin, Raijin"', '"name":"Ahriman"'),
    '"name":"Shumi Tribe"', '"name":"Mindflayer"'),
    '"name":"Angelo"', '"name":"Ramuh"'),
    '"name":"Ward"', '"name":"Emerald Weapon"'),
    '"name":"Kiros"', '"name":"Ruby Weapon"'),
    '"name":"Laguna"', '"name":"Diamond Weapon"'),
    '"name":"Selphie"', '"name":"Sapphire Weapon"'),
    '"name":"Quistis"', '"name":"Kaiser Dragon"'),
    '"name":"Irvine"', '"name":"Ozma"'),
    '"name":"Zell"', '"name":"Hades"'),
    '"name":"Rinoa"', '"name":"Ark"'),
    '"name":"Edea"', '"name":"Knights of the Round"'),
    '"name":"Seifer"', '"name":"Shinryu"'),
    '"name":"Squall"', '"name":"Omega Weapon"')
WHERE status = 'choosing';

UPDATE untold SET frame = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(frame,
    '"name":"Gesper"', '"name":"Goblin"'),
    '"A007 Gesper"', '"A007 Goblin"'),
    '"name":"Jelleye"', '"name":"Flan"'),
    '"A021 Jelleye"', '"A021 Flan"'),
    '"name":"Elastoid"', '"name":"Coeurl"'),
    '"A049 Elastoid"', '"A049 Coeurl"'),
    '"name":"Biggs, Wedge"', '"name":"Zu"'),
    '"A055 Biggs, Wedge"', '"A055 Zu"'),
    '"name":"Fujin, Raijin"', '"name":"Ahriman"'),
    '"A056 Fujin, Raijin"', '"A056 Ahriman"'),
    '"name":"Shumi Tribe"', '"name":"Mindflayer"'),
    '"A065 Shumi Tribe"', '"A065 Mindflayer"'),
    '"name":"Angelo"', '"name":"Ramuh"'),
    '"A079 Angelo"', '"A079 Ramuh"'),
    '"name":"Ward"', '"name":"Emerald Weapon"'),
    '"A100 Ward"', '"A100 Emerald Weapon"'),
    '"name":"Kiros"', '"name":"Ruby Weapon"'),
    '"A101 Kiros"', '"A101 Ruby Weapon"'),
    '"name":"Laguna"', '"name":"Diamond Weapon"'),
    '"A102 Laguna"', '"A102 Diamond Weapon"'),
    '"name":"Selphie"', '"name":"Sapphire Weapon"'),
    '"A103 Selphie"', '"A103 Sapphire Weapon"'),
    '"name":"Quistis"', '"name":"Kaiser Dragon"'),
    '"A104 Quistis"', '"A104 Kaiser Dragon"'),
    '"name":"Irvine"', '"name":"Ozma"'),
    '"A105 Irvine"', '"A105 Ozma"'),
    '"name":"Zell"', '"name":"Hades"'),
    '"A106 Zell"', '"A106 Hades"'),
    '"name":"Rinoa"', '"name":"Ark"'),
    '"A107 Rinoa"', '"A107 Ark"'),
    '"name":"Edea"', '"name":"Knights of the Round"'),
    '"A108 Edea"', '"A108 Knights of the Round"'),
    '"name":"Seifer"', '"name":"Shinryu"'),
    '"A109 Seifer"', '"A109 Shinryu"'),
    '"name":"Squall"', '"name":"Omega Weapon"'),
    '"A110 Squall"', '"A110 Omega Weapon"')
WHERE kind = 'tt_settled';

UPDATE tt_decks SET note = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(note,
    'Gesper (A007)', 'Goblin (A007)'),
    'Jelleye (A021)', 'Flan (A021)'),
    'Elastoid (A049)', 'Coeurl (A049)'),
    'Biggs, Wedge (A055)', 'Zu (A055)'),
    'Fujin, Raijin (A056)', 'Ahriman (A056)'),
    'Shumi Tribe (A065)', 'Mindflayer (A065)'),
    'Angelo (A079)', 'Ramuh (A079)'),
    'Ward (A100)', 'Emerald Weapon (A100)'),
    'Kiros (A101)', 'Ruby Weapon (A101)'),
    'Laguna (A102)', 'Diamond Weapon (A102)'),
    'Selphie (A103)', 'Sapphire Weapon (A103)'),
    'Quistis (A104)', 'Kaiser Dragon (A104)'),
    'Irvine (A105)', 'Ozma (A105)'),
    'Zell (A106)', 'Hades (A106)'),
    'Rinoa (A107)', 'Ark (A107)'),
    'Edea (A108)', 'Knights of the Round (A108)'),
    'Seifer (A109)', 'Shinryu (A109)'),
    'Squall (A110)', 'Omega Weapon (A110)')
WHERE note IS NOT NULL;
