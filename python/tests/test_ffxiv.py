"""arbiter.ffxiv: Final Fantasy XIV's cards, NPCs, hands and deck rule, from the core's data."""

from math import comb

import pytest

import arbiter
from arbiter import ffxiv


def test_every_card_and_npc_with_their_source() -> None:
    cards = ffxiv.cards()
    assert len(cards) == 444
    assert [c["id"] for c in cards] == sorted(c["id"] for c in cards)
    assert sum(c["type"] != "none" for c in cards) == 444 - 333
    assert {c["type"] for c in cards} == {"none", "primal", "scion", "beastman", "garlean"}
    assert all(1 <= c["rarity"] <= 5 for c in cards)
    assert len(ffxiv.npcs()) == 128
    assert "FFTriadBuddy" in ffxiv.sources()["cards"]["repository"]
    assert ffxiv.sources()["npcs"]["commit"] == ffxiv.sources()["cards"]["commit"]


def test_lookups_by_name_and_id() -> None:
    # The spec's evidence (rules/triple-triad-ffxiv.md, section 1): the Chocobo's right is 7.
    assert ffxiv.card("chocobo")["ranks"] == [3, 7, 2, 1]
    assert ffxiv.card(13)["name"]["en"] == "Chocobo"
    assert ffxiv.card("Gaélichat")["name"]["en"] == "Gaelicat"
    assert ffxiv.npc("aurifort l'as de trèfle")["rules"] == ["three_open", "order"]
    with pytest.raises(arbiter.BadArgumentError, match="no FFXIV card is named 'Geezard'"):
        ffxiv.card("Geezard")
    with pytest.raises(TypeError):
        ffxiv.npc(True)


def test_npc_rules_are_the_cores_rule_names() -> None:
    rules = next(o for o in arbiter.describe("triple-triad")["options"] if o["name"] == "rules")
    flags = set(rules["values"])
    for n in ffxiv.npcs():
        assert set(n["rules"]) <= flags, n["name"]["en"]


def test_hands_are_the_fixed_cards_and_a_draw_of_the_variable_ones() -> None:
    for n in ffxiv.npcs():
        hands = ffxiv.hands(n["id"])
        assert len(hands) == comb(len(n["variable"]), 5 - len(n["fixed"]))
        for hand in hands:
            ids = [c["id"] for c in hand]
            assert ids[: len(n["fixed"])] == n["fixed"]
            assert len(set(ids)) == 5 and set(ids) <= set(n["fixed"]) | set(n["variable"])
    with pytest.raises(arbiter.BadArgumentError):
        ffxiv.hands("Nobody")


def test_a_round_against_an_npc_hand_under_its_rules() -> None:
    baderon = ffxiv.npc("Baderon")
    hand = ffxiv.hands("Baderon")[0]

    def as_card(c: dict) -> dict:  # type: ignore[type-arg]
        return {"name": c["name"]["en"], "ranks": c["ranks"], "type": c["type"]}

    mine = [as_card(ffxiv.card(i)) for i in (1, 2, 3, 4, 5)]
    g = arbiter.TripleTriad.from_json(
        {
            "rules": {rule: True for rule in baderon["rules"]},
            "board": [None] * 9,
            "hands": {"blue": mine, "red": [as_card(c) for c in hand]},
            "to_move": "blue",
        }
    )
    assert g.observation("red")["hand"][0]["name"] == hand[0]["name"]["en"]
    assert len(g.legal_moves()) == 45


def test_the_deck_rule() -> None:
    assert ffxiv.DECK_RULE == {"cards": 5, "max_four_or_five_stars": 2, "max_five_stars": 1}
