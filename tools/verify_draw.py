#!/usr/bin/env python3
"""Independent re-computation of a live-draw draw, following docs/FAIRNESS.md only.

Usage:
  python3 tools/verify_draw.py RECORD.json          # a draw record or a `finished` message
  curl -s http://127.0.0.1:8080/api/rooms/lobby | python3 tools/verify_draw.py -   (its lastResult)

It uses nothing but the Python standard library, so it shares no code with the server.
"""
import hashlib
import hmac
import json
import sys


def canonical_entrants(entrants):
    """The canonical JSON bytes of docs/FAIRNESS.md section 3 (JSON.stringify escaping)."""
    objs = [
        {"userId": p["userId"], "name": p["name"], "username": p["username"],
         "regDate": p["regDate"], "void": bool(p["void"])}
        for p in entrants
    ]
    return json.dumps(objs, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def pick_index(seed: bytes, draw_id: str, rnd: int, n: int) -> int:
    limit = (2 ** 32 // n) * n
    block = 0
    while True:
        msg = f"{draw_id}:{rnd}" if block == 0 else f"{draw_id}:{rnd}:{block}"
        mac = hmac.new(seed, msg.encode("utf-8"), hashlib.sha256).digest()
        for w in range(8):
            word = int.from_bytes(mac[4 * w:4 * w + 4], "big")
            if word < limit:
                return word % n
        block += 1


def verify(draw_id, seed_hex, entrants, rounds=10, commitment=None, entrants_hash=None, shown=None):
    seed = bytes.fromhex(seed_hex)
    report = {"picks": [pick_index(seed, draw_id, r, len(entrants)) for r in range(1, rounds + 1)]}
    report["commitmentOk"] = commitment is None or hashlib.sha256(seed).hexdigest() == commitment
    report["entrantsHashOk"] = entrants_hash is None or \
        hashlib.sha256(canonical_entrants(entrants)).hexdigest() == entrants_hash
    if shown is not None:
        report["roundsOk"] = all(report["picks"][i] == idx for i, idx in enumerate(shown))
    drawn = entrants[report["picks"][-1]]
    report["drawn"] = drawn
    report["outcome"] = "void" if drawn["void"] else "winner"
    return report


def rounds_of(draw):
    """Number of rounds: `rounds` in a finished message, else the schedule's, else 10."""
    if isinstance(draw.get("rounds"), int):
        return draw["rounds"]
    return draw.get("schedule", {}).get("rounds", 10)


def pick_verifiable(doc):
    """The draw in `doc` whose seed is revealed: the document itself (a `finished` message or a
    record), its `draw`, or a snapshot's `lastResult`. A running draw has no seed yet."""
    for candidate in (doc, doc.get("draw"), doc.get("lastResult")):
        if isinstance(candidate, dict) and candidate.get("seed"):
            return candidate
    return None


def main():
    src = sys.stdin if sys.argv[1:] in ([], ["-"]) else open(sys.argv[1])
    doc = json.load(src)
    draw = pick_verifiable(doc)
    if draw is None:
        sys.exit("nothing to verify: no draw with a revealed seed (a running draw reveals it only when it ends)")
    report = verify(draw["drawId"], draw["seed"], draw["entrants"], rounds_of(draw),
                    draw.get("commitment"), draw.get("entrantsHash"), draw.get("picks"))
    print(json.dumps(report, indent=2, ensure_ascii=False))
    ok = report["commitmentOk"] and report["entrantsHashOk"] and report.get("roundsOk", True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
