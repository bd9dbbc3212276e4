#!/usr/bin/env python3
"""Independent re-computation of a live-draw draw, following docs/FAIRNESS.md only.

Usage:
  python3 tools/verify_draw.py RECORD.json          # a draw record or a `finished` message
  curl -s http://127.0.0.1:8080/api/rooms/lobby | python3 tools/verify_draw.py --server http://127.0.0.1:8080 -
  python3 tools/verify_draw.py --server http://127.0.0.1:8080 --draw DRAW_ID   # fetches the record

A document without the entrants list (protocol v2's `finished` and snapshots carry only its hash)
gets it from `--server`'s GET /api/draws/ID/entrants; the list must then match `entrantsHash`.

It uses nothing but the Python standard library, so it shares no code with the server.
"""
import argparse
import hashlib
import hmac
import json
import sys
import urllib.request


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


def winner_picks(seed: bytes, draw_id: str, rounds: int, n: int, k: int) -> list:
    """The entrant indices of winner slots 1..k (docs/FAIRNESS.md section 5): slot s continues the
    rounds' stream with message number rounds + s - 1 and picks among the n - s + 1 entrants not
    drawn yet, in list order. Slot 1 is the last round's pick."""
    remaining = list(range(n))
    picks = []
    for s in range(1, k + 1):
        picks.append(remaining.pop(pick_index(seed, draw_id, rounds + s - 1, len(remaining))))
    return picks


def valid_winner_count(k, n):
    return isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= n


def verify(draw_id, seed_hex, entrants, rounds=10, commitment=None, entrants_hash=None, shown=None, winners=None):
    """Recomputes `rounds` picks and checks what the record claims. `shown` is the claimed pick
    of each round checked (a prefix of the draw for a stopped one). With `winners` (k) the report
    also has `winnerPicks`, the k recomputed slots (None when k is not within 1..entrants)."""
    seed = bytes.fromhex(seed_hex)
    report = {"picks": [pick_index(seed, draw_id, r, len(entrants)) for r in range(1, rounds + 1)]}
    if winners is not None:
        report["winnerPicks"] = winner_picks(seed, draw_id, rounds, len(entrants), winners) \
            if rounds >= 1 and valid_winner_count(winners, len(entrants)) else None
    report["commitmentOk"] = commitment is None or hashlib.sha256(seed).hexdigest() == commitment
    report["entrantsHashOk"] = entrants_hash is None or \
        hashlib.sha256(canonical_entrants(entrants)).hexdigest() == entrants_hash
    if shown is not None:
        report["roundsOk"] = len(shown) <= rounds and all(report["picks"][i] == idx for i, idx in enumerate(shown))
    if report["picks"]:
        drawn = entrants[report["picks"][-1]]
        report["drawn"] = drawn
        report["outcome"] = "void" if drawn["void"] else "winner"
    return report


def is_stopped(draw):
    """Stopped by the server (aborted) or by its crash (interrupted): nothing was decided."""
    return draw.get("status") in ("aborted", "interrupted")


def claim_of(draw):
    """(rounds to recompute, the picks the record claims for them). A stored record lists its
    rounds; a stopped draw claims only the rounds the audience saw (those with a `sentAt`): the
    unshown ones were never public, so they prove nothing either way."""
    if isinstance(draw.get("rounds"), list):
        if is_stopped(draw):
            shown = [r["index"] for r in draw["rounds"] if r.get("sentAt") is not None]
            return len(shown), shown
        return len(draw["rounds"]), draw.get("picks")
    return rounds_of(draw), draw.get("picks")


def verify_document(draw):
    """Everything a record (or a `finished` message) claims, checked; `ok` sums it up and
    `roundsChecked` says how many rounds that covered. A stopped draw has no outcome."""
    rounds, claimed = claim_of(draw)
    report = verify(draw["drawId"], draw["seed"], draw["entrants"], rounds,
                    draw.get("commitment"), draw.get("entrantsHash"), claimed, winners_of(draw))
    report["roundsChecked"] = rounds
    if claimed is not None and len(claimed) != rounds:
        report["roundsOk"] = False  # a record must claim every round it says was drawn (or shown)
    if is_stopped(draw):
        report.pop("drawn", None)
        report["outcome"] = None
        report["stopped"] = draw["status"]
    elif "outcome" in draw and "drawn" in report:
        drawn = report["drawn"]
        winner = (draw.get("winner") or {}).get("userId")
        report["outcomeOk"] = draw["outcome"] == report["outcome"] and \
            winner == (None if drawn["void"] else drawn["userId"])
        if "winnerPicks" in report:
            report["winnersOk"] = slots_match(draw.get("winnerPicks"), report["winnerPicks"], draw["entrants"])
    report["ok"] = all(report.get(k, True)
                       for k in ("commitmentOk", "entrantsHashOk", "roundsOk", "outcomeOk", "winnersOk"))
    return report


def winners_of(draw):
    """The winner count a draw claims, or None for a one-winner draw (which has no slot list):
    `winners` appears only in draws with more than one winner (or a slot list), and a stopped
    draw decided no slot."""
    if is_stopped(draw) or ("winners" not in draw and "winnerPicks" not in draw):
        return None
    return draw.get("winners", 1)


def slots_match(claimed, expected, entrants):
    """Every recomputed slot is claimed, in order, naming the entrant at its index (void flag
    included, since it decides whether the slot wins)."""
    if expected is None or not isinstance(claimed, list) or len(claimed) != len(expected):
        return False
    return all(isinstance(c, dict) and c.get("index") == i and c.get("userId") == entrants[i]["userId"]
               and c.get("void") == entrants[i]["void"] for c, i in zip(claimed, expected))


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


def fetch_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def with_entrants(draw, server):
    """The draw with its entrants: its own list, else the server's (its hash is then required,
    since it is what ties the fetched list to the draw)."""
    if isinstance(draw.get("entrants"), list):
        return draw
    if not server:
        sys.exit("this draw names its entrants only by their hash: pass --server URL to fetch them "
                 "(GET /api/draws/ID/entrants)")
    entrants = fetch_json(f"{server.rstrip('/')}/api/draws/{draw['drawId']}/entrants")
    if not isinstance(entrants, list):
        sys.exit("the server sent no list of entrants")
    return {**draw, "entrants": entrants, "entrantsHash": draw.get("entrantsHash") or "(missing)"}


def main():
    ap = argparse.ArgumentParser(description="Recompute a live-draw draw from its revealed seed (docs/FAIRNESS.md).")
    ap.add_argument("document", nargs="?", default="-", help="a record, a `finished` message or a room snapshot (JSON); - for stdin")
    ap.add_argument("--server", help="the live-draw server to fetch entrants (and --draw records) from, e.g. http://127.0.0.1:8080")
    ap.add_argument("--draw", help="a draw id: fetch its record from --server instead of reading a document")
    a = ap.parse_args()
    if a.draw:
        if not a.server:
            sys.exit("--draw needs --server")
        doc = fetch_json(f"{a.server.rstrip('/')}/api/draws/{a.draw}")
    else:
        doc = json.load(sys.stdin if a.document == "-" else open(a.document))
    draw = pick_verifiable(doc)
    if draw is None:
        sys.exit("nothing to verify: no draw with a revealed seed (a running draw reveals it only when it ends)")
    report = verify_document(with_entrants(draw, a.server))
    print(json.dumps(report, indent=2, ensure_ascii=False))
    sys.exit(0 if report["ok"] else 1)


if __name__ == "__main__":
    main()
