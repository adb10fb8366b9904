#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora under fuzz/corpus/ from the conformance cases."""
import hashlib, json, pathlib, struct, sys

root = pathlib.Path(__file__).resolve().parent
out = root / "corpus"

def put(target, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)

variants = {"8x8": 0, "unbounded": 1, "loop": 2}
for path in sorted((root.parent / "conformance").glob("*.jsonl")):
    for line in path.read_text().splitlines():
        case = json.loads(line)
        game, kind = case["game"], case["kind"]
        if game == "triple-triad" and "state" in case:
            put("c_abi", b"\x80" + json.dumps(case["state"]).encode() + b"\0" + bytes(range(0, 256, 7)))
            moves = bytes(m["card"] * 9 + m["cell"] for m in case.get("moves", [])
                          if isinstance(m, dict) and 0 <= m.get("card", 0) < 5 and 0 <= m.get("cell", 0) < 9)
            put("triple_triad_state", json.dumps(case["state"]).encode() + b"\0" + moves)
        elif game == "triple-triad" and kind == "match":
            put("triple_triad_match", b"\0" + bytes([len(case["name"]) % 4]) + struct.pack(">Q", len(line)) + bytes(range(0, 90, 2)))
        elif game == "trax":
            put("c_abi", b"\x81" + json.dumps({"variant": case["variant"], "moves": case["moves"]}).encode() + b"\0" + bytes(range(0, 256, 5)))
            put("trax_record", bytes([variants.get(case["variant"], 1)]) + " ".join(case["moves"]).encode())
        elif game == "nantong" and kind in ("score", "winning"):
            fields = {k: v for k, v in case.items() if k not in ("game", "kind", "name", "expect", "note")}
            put("nantong_score", json.dumps(fields).encode())
        elif game == "nantong" and kind == "replay":
            put("nantong_deal", struct.pack(">Q", len(line)) + bytes(len(case["actions"]) % 256 for _ in range(64)))
for g in range(3):
    # hidden_information: the computer plays (nothing after the header), or random legal moves.
    for seed in range(4):
        head = bytes([g]) + struct.pack(">Q", seed) + bytes([seed % 3]) + struct.pack(">Q", 3 * seed + g)
        put("hidden_information", head)
        put("hidden_information", head + bytes(range(160, 256)) * 8)
    put("c_abi", bytes([g]) + struct.pack(">Q", 11 + g) + bytes(range(256)))
    put("action_ids", bytes([g, g]) + struct.pack(">Q", 7 + g) + bytes(range(64)))
# A legal Loop game that is one column of 1,000 straight tiles (a straight column never closes a
# loop): the board on which the searching levels once spent minutes past every budget.
column = "@0+ " + " ".join(f"A{row}+" for row in range(2, 1001))
put("trax_record", bytes([variants["loop"]]) + column.encode())
print("corpora written to", out, file=sys.stderr)
