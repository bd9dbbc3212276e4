#!/usr/bin/env python3
"""Independent re-computation of a live-draw draw, following docs/FAIRNESS.md only.

Usage:
  python3 tools/verify_draw.py RECORD.json          # a draw record or a `finished` message
  curl -s http://127.0.0.1:8080/api/rooms/lobby | python3 tools/verify_draw.py --server http://127.0.0.1:8080 -
  python3 tools/verify_draw.py --server http://127.0.0.1:8080 --draw DRAW_ID   # fetches the record
  python3 tools/verify_draw.py --server … --draw DRAW_ID --scheduled COMMITMENT.json

`--scheduled` takes the commitment a scheduled draw published when it was scheduled (the PUT's
answer, the room's `scheduled`, or GET /api/draws/ID while it waited; docs/FAIRNESS.md section 10)
and checks that the draw is the one committed to: same id, seed hash, entrants hash and winners,
scheduled when it says, started no earlier than its time, and the beacon round it named (or none).

A document without the entrants list (protocol v2's `finished` and snapshots carry only its hash)
gets it from `--server`'s GET /api/draws/ID/entrants; the list must then match `entrantsHash`.

It uses nothing but the Python standard library, so it shares no code with the server. For a
beacon draw (docs/FAIRNESS.md section 9) it also checks the round's BLS signature against the
chain's public key when the optional py_ecc package is installed (`pip install py_ecc`; about
0.4 s a round): quicknet's key is built in, `--beacon-key HEX` gives another G1-signature chain's.
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


def pick_index(seed: bytes, draw_id: str, rnd, n: int) -> int:
    """Section 4's pick; `rnd` is a round number, or a later winner's flip label "s.r" (5a)."""
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


def each_winner_flips(seed: bytes, draw_id: str, rounds: int, n: int, slots: list) -> list:
    """The flips of winners 2..k when each winner is revealed with its own (section 5a): flip r < R
    of winner s is the pick labelled "s.r" among the entrants not drawn for slots 1..s-1, in list
    order; flip R shows slot s itself."""
    flips = []
    for s in range(2, len(slots) + 1):
        remaining = [i for i in range(n) if i not in slots[:s - 1]]
        for r in range(1, rounds):
            flips.append(remaining[pick_index(seed, draw_id, f"{s}.{r}", len(remaining))])
        flips.append(slots[s - 1])
    return flips


def remaining_after(draw):
    """The entrants a redraw of `draw` draws from (section 5b): its entrants without every entry
    drawn for its slots, in order."""
    slots = {p["index"] for p in (draw.get("winnerPicks") or [])}
    if not slots and draw.get("picks"):
        slots = {draw["picks"][len(draw["picks"]) - 1]}  # one winner: the last round's pick
    return [p for i, p in enumerate(draw["entrants"]) if i not in slots]


def number_follows(number, base_link):
    """A redraw's `number` follows the draw it redraws (section 5b): 1 after the giveaway's first
    draw, one more than a numbered redraw, at least 2 after a redraw from before the numbering; a
    redraw without a number (from before it) is not checked."""
    if number is None:
        return True
    if not isinstance(number, int) or isinstance(number, bool):
        return False
    if not base_link:
        return number == 1
    previous = base_link.get("number")
    if previous is None:
        return number >= 2
    return isinstance(previous, int) and number == previous + 1


def redraw_ok(draw, base):
    """A redraw holds exactly the entrants section 5b gives for the finished draw it names, and
    not the removed winner; its number follows that draw's."""
    link = draw.get("redrawOf") or {}
    if base is None or base.get("drawId") != link.get("drawId") or base.get("status", "finished") != "finished":
        return False
    if not number_follows(link.get("number"), base.get("redrawOf")):
        return False
    key = lambda p: (p["userId"], p["name"], p["username"], p["regDate"], bool(p["void"]))
    removed = link.get("removed") or {}
    return [key(p) for p in draw["entrants"]] == [key(p) for p in remaining_after(base)] and \
        all(p["userId"] != removed.get("userId") for p in draw["entrants"])


def valid_winner_count(k, n):
    return isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= n


def is_hex_of(value, size=None) -> bool:
    """Whether `value` is hex (of `size` bytes, when given): a record's seed or randomness that is
    not is reported (`seedOk`, check_beacon's `beaconOk`), never a crash of the verifier."""
    try:
        data = bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return False
    return data is not None and (size is None or len(data) == size)


def beacon_key(seed: bytes, randomness: bytes) -> bytes:
    """Section 9: a beacon draw's picks are keyed by HMAC-SHA256(key = seed, message = randomness)."""
    return hmac.new(seed, randomness, hashlib.sha256).digest()


def verify(draw_id, seed_hex, entrants, rounds=10, commitment=None, entrants_hash=None, shown=None, winners=None,
           each=False, randomness_hex=None):
    """Recomputes `rounds` picks and checks what the record claims. `shown` is the claimed pick
    of each round checked (a prefix of the draw for a stopped one). With `winners` (k) the report
    also has `winnerPicks`, the k recomputed slots (None when k is not within 1..entrants). With
    `each` (section 5a) `picks` goes on with the flips of winners 2..k. With `randomness_hex` (a
    beacon draw, section 9) every pick is keyed by HMAC(seed, randomness) instead of the seed."""
    committed = bytes.fromhex(seed_hex)
    seed = beacon_key(committed, bytes.fromhex(randomness_hex)) if randomness_hex else committed
    report = {"picks": [pick_index(seed, draw_id, r, len(entrants)) for r in range(1, rounds + 1)]}
    if winners is not None:
        report["winnerPicks"] = winner_picks(seed, draw_id, rounds, len(entrants), winners) \
            if rounds >= 1 and valid_winner_count(winners, len(entrants)) else None
    drawn_index = report["picks"][-1] if report["picks"] else None
    if each and report.get("winnerPicks"):
        report["picks"] += each_winner_flips(seed, draw_id, rounds, len(entrants), report["winnerPicks"])
    report["commitmentOk"] = commitment is None or hashlib.sha256(committed).hexdigest() == commitment
    report["entrantsHashOk"] = entrants_hash is None or \
        hashlib.sha256(canonical_entrants(entrants)).hexdigest() == entrants_hash
    if shown is not None:
        report["roundsOk"] = len(shown) <= len(report["picks"]) and \
            all(report["picks"][i] == idx for i, idx in enumerate(shown))
    if drawn_index is not None:
        drawn = entrants[drawn_index]
        report["drawn"] = drawn
        report["outcome"] = "void" if drawn["void"] else "winner"
    return report


def is_stopped(draw):
    """Stopped by the server (aborted) or by its crash (interrupted): nothing was decided."""
    return draw.get("status") in ("aborted", "interrupted")


def reveals_each(draw):
    """Whether each winner has its own flips (section 5a): `"reveal":"each"`."""
    return draw.get("reveal") == "each"


def claim_of(draw):
    """(rounds to recompute, the picks the record claims for them). A stored record lists its
    rounds; a stopped draw claims only the rounds the audience saw (those with a `sentAt`): the
    unshown ones were never public, so they prove nothing either way. When each winner has its
    own flips, the rounds to recompute are one winner's (the schedule's)."""
    if isinstance(draw.get("rounds"), list):
        if is_stopped(draw):
            shown = [r["index"] for r in draw["rounds"] if r.get("sentAt") is not None]
            return (rounds_of(draw) if reveals_each(draw) else len(shown)), shown
        return (rounds_of(draw) if reveals_each(draw) else len(draw["rounds"])), draw.get("picks")
    return rounds_of(draw), draw.get("picks")


def verify_document(draw, base=None, beacon_key=None, check_bls=False):
    """Everything a record (or a `finished` message) claims, checked; `ok` sums it up and
    `roundsChecked` says how many rounds that covered. A stopped draw has no outcome. A redraw
    (`redrawOf`) is also checked against `base`, the record of the draw it redraws. A seed that is
    not 32 bytes of hex (FAIRNESS.md section 2, as the page's verifier asks) fails the report (`seedOk`, `error`): nothing can be recomputed from it."""
    if not is_hex_of(draw.get("seed"), 32):
        return {"seedOk": False, "error": f"the record's seed is not 32 bytes of hex (section 2): {draw.get('seed')!r}",
                "picks": [], "outcome": None, "roundsChecked": 0, "ok": False}
    rounds, claimed = claim_of(draw)
    each = reveals_each(draw)
    # The flips of later winners follow from the slots, which a stopped draw still has (k).
    winners = draw.get("winners", 1) if each else winners_of(draw)
    beacon = draw.get("beacon") if isinstance(draw.get("beacon"), dict) else None
    randomness = beacon.get("randomness") if beacon else None
    if beacon and not randomness:
        rounds = 0  # the round never came: no pick was made, and the seed was never used
    report = verify(draw["drawId"], draw["seed"], draw["entrants"], rounds,
                    draw.get("commitment"), draw.get("entrantsHash"), claimed, winners, each,
                    randomness if is_hex_of(randomness, 32) else None)
    if beacon:
        report.update(check_beacon(draw, beacon))
        if check_bls and randomness:
            report["beaconSignature"] = check_signature(beacon, beacon_key)
            if report["beaconSignature"] == "invalid":
                report["beaconOk"] = False
    if each and is_stopped(draw):
        report.pop("winnerPicks", None)
    report["roundsChecked"] = len(claimed) if each and is_stopped(draw) and claimed is not None else \
        (len(report["picks"]) if each else rounds)
    if claimed is not None and not is_stopped(draw) and len(claimed) != len(report["picks"]):
        report["roundsOk"] = False  # a record must claim every round it says was drawn
    if claimed is not None and is_stopped(draw) and not each and len(claimed) != rounds:
        report["roundsOk"] = False
    if draw.get("redrawOf") is not None:
        report["redrawOf"] = draw["redrawOf"].get("drawId")
        report["redrawOk"] = redraw_ok(draw, base)
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
    report.setdefault("outcome", None)  # a beacon draw claiming a result without its round has none
    report["ok"] = all(report.get(k, True)
                       for k in ("commitmentOk", "entrantsHashOk", "roundsOk", "outcomeOk", "winnersOk", "redrawOk",
                                 "beaconOk"))
    return report


# drand's quicknet (bls-unchained-g1-rfc9380): signatures on G1, its public key on G2.
QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_KEY = ("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510"
                "d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a")
QUICKNET_GENESIS, QUICKNET_PERIOD = 1692803367, 3  # its /info: genesis_time, period (seconds)
G1_DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"


def check_beacon(draw, beacon):
    """Section 9's checks of a beacon draw's round: its randomness is SHA-256 of its signature, it
    was published after the commitment (`at` after `startedAt`; on quicknet, whose genesis and
    period are known, `at` is R's real publication time), a finished draw has it, and, when
    py_ecc is installed, its BLS signature (quicknet's key built in, else --beacon-key). The report links the round on a
    public relay, where anyone can compare it."""
    out = {"beaconRound": beacon.get("round"),
           "beaconRelay": f"https://api.drand.sh/{beacon.get('chain')}/public/{beacon.get('round')}"}
    randomness, signature = beacon.get("randomness"), beacon.get("signature")
    if not randomness:
        out["seedUsed"] = False
        out["beaconOk"] = draw.get("status") != "finished" and draw.get("type") != "finished"
        return out
    try:
        sig = bytes.fromhex(signature or "")
        rnd = bytes.fromhex(randomness)
    except (ValueError, TypeError):  # not hex, or not a string at all
        out["beaconOk"] = False
        return out
    started, at = draw.get("startedAt"), beacon.get("at")
    out["beaconOk"] = len(rnd) == 32 and len(sig) > 0 and hashlib.sha256(sig).digest() == rnd and \
        (started is None or (isinstance(at, (int, float)) and at > started))
    if beacon.get("chain") == QUICKNET and isinstance(beacon.get("round"), int):
        # A chain whose genesis and period are known: `at` must be R's real publication time.
        out["beaconOk"] = out["beaconOk"] and at == (QUICKNET_GENESIS + (beacon["round"] - 1) * QUICKNET_PERIOD) * 1000
    return out


def bls_signature_valid(round_number: int, signature: bytes, public_key: bytes):
    """Whether `signature` is the chain's BLS signature of round `round_number` in drand's unchained
    G1 scheme (quicknet): e(signature, g2) = e(H(SHA-256(round as 8 bytes big-endian)), key), with
    H the RFC 9380 hash to G1. None when py_ecc is not installed (the check is optional) or the
    scheme is not this one (a 96-byte signature is an older chain's, on G2)."""
    try:
        from py_ecc.bls.hash_to_curve import hash_to_G1
        from py_ecc.bls.point_compression import decompress_G1, decompress_G2
        from py_ecc.optimized_bls12_381 import G2, final_exponentiate, pairing
    except ImportError:
        return None
    if len(signature) != 48 or len(public_key) != 96:
        return None
    try:
        sig = decompress_G1(int.from_bytes(signature, "big"))
        key = decompress_G2((int.from_bytes(public_key[:48], "big"), int.from_bytes(public_key[48:], "big")))
    except (ValueError, AssertionError):
        return False
    message = hashlib.sha256(round_number.to_bytes(8, "big")).digest()
    hashed = hash_to_G1(message, G1_DST, hashlib.sha256)
    return final_exponentiate(pairing(G2, sig, final_exponentiate=False)) == \
        final_exponentiate(pairing(key, hashed, final_exponentiate=False))


def check_signature(beacon, key_hex=None):
    """`beaconSignature`: "valid", "invalid", or why it was not checked."""
    key_hex = key_hex or (QUICKNET_KEY if beacon.get("chain") == QUICKNET else None)
    if not key_hex:
        return "not checked: no public key for this chain (pass --beacon-key)"
    round_number = beacon.get("round")
    if not isinstance(round_number, int) or not 0 < round_number < 2 ** 64:
        return "invalid"
    try:
        verdict = bls_signature_valid(round_number, bytes.fromhex(beacon.get("signature") or ""), bytes.fromhex(key_hex))
    except ValueError:
        return "invalid"
    if verdict is None:
        return "not checked: install py_ecc (pip install py_ecc) for the BLS check"
    return "valid" if verdict else "invalid"


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


def check_scheduled(draw, scheduled):
    """Section 10: whether `draw` (a record) is the draw `scheduled` committed to. The beacon round
    is the commitment's own, named from the scheduled time (10.1): a record with another round, or
    a round where none was committed (or none where one was), is not that draw."""
    same = all(draw.get(k) == scheduled.get(k) for k in ("drawId", "commitment", "entrantsHash"))
    same = same and draw.get("winners", 1) == scheduled.get("winners", 1)
    same = same and draw.get("createdAt") == scheduled.get("scheduledAt")
    started = draw.get("startedAt")
    on_time = isinstance(started, (int, float)) and isinstance(scheduled.get("at"), (int, float)) \
        and started >= scheduled["at"]
    committed, used = scheduled.get("beacon"), draw.get("beacon")
    if committed is None:
        round_ok = used is None
    else:
        round_ok = isinstance(used, dict) and all(used.get(k) == committed.get(k) for k in ("chain", "round", "at"))
    return {"scheduledOk": bool(same and round_ok and (on_time or draw.get("roundsShown") == 0)),
            "scheduledRound": committed.get("round") if isinstance(committed, dict) else None}


def main():
    ap = argparse.ArgumentParser(description="Recompute a live-draw draw from its revealed seed (docs/FAIRNESS.md).")
    ap.add_argument("document", nargs="?", default="-", help="a record, a `finished` message or a room snapshot (JSON); - for stdin")
    ap.add_argument("--server", help="the live-draw server to fetch entrants (and --draw records) from, e.g. http://127.0.0.1:8080")
    ap.add_argument("--draw", help="a draw id: fetch its record from --server instead of reading a document")
    ap.add_argument("--beacon-key", help="a beacon draw's chain public key (hex; quicknet's is built in), for the "
                                         "BLS check of its round (needs py_ecc)")
    ap.add_argument("--scheduled", help="a scheduled draw's commitment as published at scheduling (JSON file; "
                                        "docs/FAIRNESS.md section 10): check the draw is that one, beacon round included")
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
    base = None
    if isinstance(draw.get("redrawOf"), dict):
        # A redraw is checked against the draw it redraws: its record, from the server.
        if not a.server:
            sys.exit("this draw is a redraw: pass --server URL to fetch the draw it redraws (GET /api/draws/ID)")
        base = fetch_json(f"{a.server.rstrip('/')}/api/draws/{draw['redrawOf']['drawId']}")
    report = verify_document(with_entrants(draw, a.server), base, beacon_key=a.beacon_key, check_bls=True)
    if a.scheduled:
        with open(a.scheduled) as f:
            report.update(check_scheduled(draw, json.load(f)))
        report["ok"] = report["ok"] and report["scheduledOk"]
    print(json.dumps(report, indent=2, ensure_ascii=False))
    sys.exit(0 if report["ok"] else 1)


if __name__ == "__main__":
    main()
