#!/usr/bin/env python3
"""Writes ffxiv-cards.json and ffxiv-npcs.json from FFTriadBuddy's data files.

    python3 core/data/ffxiv_extract.py GIT_DIR [COMMIT]

GIT_DIR is a clone (bare is enough) of https://github.com/MgAl2O4/FFTriadBuddy; COMMIT defaults
to the one the committed files were made from. The build never runs this: it reads the JSON.

Only facts are carried over (numbers, names, rules, deck lists); field meanings are the ones
FFTriadBuddy's loaders give them (sources/data/TriadCardDB.cs, TriadNpcDB.cs, LocalizationDB.cs),
with the side correction of rules/triple-triad-ffxiv.md, section 1.
"""

import datetime
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

REPOSITORY = "https://github.com/MgAl2O4/FFTriadBuddy"
DEFAULT_COMMIT = "425f72ecb3ba1580943e62b83097a0bf5a4e69e7"

# cards.xml `type`; loc.xml type 2 names them (1 is "Society" in today's English client).
TYPES = {0: "none", 1: "beastman", 2: "primal", 3: "scion", 4: "garlean"}

# npcs.xml `rule id` = loc.xml type 1 id; the values are the core's flag names.
RULES = {
    1: "roulette", 2: "all_open", 3: "three_open", 4: "sudden_death", 5: "reverse",
    6: "fallen_ace", 7: "same", 8: "plus", 9: "ascension", 10: "descension", 11: "order",
    12: "chaos", 13: "swap", 14: "random", 15: "draft",
}
RULE_NAMES_EN = {
    1: "Roulette", 2: "All Open", 3: "Three Open", 4: "Sudden Death", 5: "Reverse",
    6: "Fallen Ace", 7: "Same", 8: "Plus", 9: "Ascension", 10: "Descension", 11: "Order",
    12: "Chaos", 13: "Swap", 14: "Random", 15: "Draft",
}

# loc.xml string types (LocalizationDB.cs `ELocStringType`).
LOC_RULE, LOC_TYPE, LOC_CARD, LOC_NPC, LOC_PLACE = 1, 2, 3, 4, 5


def show(git_dir, commit, path):
    return subprocess.run(
        ["git", "-C", git_dir, "show", f"{commit}:{path}"], check=True, capture_output=True
    ).stdout


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_COMMIT
    commit = subprocess.run(
        ["git", "-C", git_dir, "rev-parse", commit], check=True, capture_output=True, text=True
    ).stdout.strip()
    commit_date = subprocess.run(
        ["git", "-C", git_dir, "log", "-1", "--format=%cs", commit],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    subject = subprocess.run(
        ["git", "-C", git_dir, "log", "-1", "--format=%s", commit],
        check=True, capture_output=True, text=True,
    ).stdout.strip()

    loc = {}
    for e in ET.fromstring(show(git_dir, commit, "assets/data/loc.xml")):
        loc[(int(e.get("type")), int(e.get("id")))] = e.attrib

    for rule_id, name in RULE_NAMES_EN.items():
        assert loc[(LOC_RULE, rule_id)]["en"] == name, (rule_id, loc[(LOC_RULE, rule_id)])
    assert [loc[(LOC_TYPE, t)]["en"] for t in (1, 2, 3, 4)] == ["Society", "Primal", "Scion", "Garlean"]

    def names(kind, ident):
        entry = loc[(kind, ident)]
        assert entry.get("en") and entry.get("fr"), (kind, ident)
        return {"en": entry["en"], "fr": entry["fr"]}

    def source(file, what):
        return {
            "what": what,
            "repository": REPOSITORY,
            "commit": commit,
            "commit_subject": subject,
            "commit_date": commit_date,
            "files": [f"assets/data/{file}", "assets/data/loc.xml"],
            "extracted": datetime.date.today().isoformat(),
            "command": "python3 core/data/ffxiv_extract.py GIT_DIR " + commit,
        }

    cards = []
    for e in ET.fromstring(show(git_dir, commit, "assets/data/cards.xml")):
        ident = int(e.get("id"))
        a = {k: int(v) for k, v in e.attrib.items()}
        cards.append({
            "id": ident,
            "name": names(LOC_CARD, ident),
            # `lt` is printed on the card's right, `rt` on its left (the spec, section 1).
            "ranks": [a["up"], a["lt"], a["dn"], a["rt"]],
            "rarity": a["rarity"] + 1,
            "type": TYPES[a["type"]],
            "sort": a["sort"],
            "group": a["group"],
        })
    cards.sort(key=lambda c: c["id"])
    card_ids = {c["id"] for c in cards}

    npcs = []
    for e in ET.fromstring(show(git_dir, commit, "assets/data/npcs.xml")):
        ident = int(e.get("id"))
        deck = {}
        rules, rewards = [], []
        for child in e:
            if child.tag in ("deckA", "deckV"):
                ids = [int(child.get(f"id{i}")) for i in range(5)]
                deck[child.tag] = [i for i in ids if i != 0]
            elif child.tag == "rule":
                rules.append(RULES[int(child.get("id"))])
            elif child.tag == "reward":
                rewards.append(int(child.get("id")))
        for i in deck["deckA"] + deck["deckV"] + rewards:
            assert i in card_ids, (ident, i)
        npcs.append({
            "id": ident,
            "name": names(LOC_NPC, ident),
            "location": {**names(LOC_PLACE, ident), "x": int(e.get("mx")), "y": int(e.get("my"))},
            "rules": rules,
            "fixed": deck["deckA"],
            "variable": deck["deckV"],
            "rewards": rewards,
        })
    npcs.sort(key=lambda n: n["id"])

    def write(path, header, key, rows):
        lines = [json.dumps(r, ensure_ascii=False) for r in rows]
        with open(path, "w", encoding="utf-8") as f:
            f.write('{"source": ' + json.dumps(header, ensure_ascii=False) + ',\n')
            f.write(f' "{key}": [\n  ' + ",\n  ".join(lines) + "\n]}\n")

    here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    write(f"{here}/ffxiv-cards.json", source("cards.xml", "Final Fantasy XIV Triple Triad cards"), "cards", cards)
    write(f"{here}/ffxiv-npcs.json", source("npcs.xml", "Final Fantasy XIV Triple Triad NPC opponents"), "npcs", npcs)
    print(f"{len(cards)} cards, {len(npcs)} NPCs from {commit}")


if __name__ == "__main__":
    main()
