"""Checks on a draw as clients saw it: fairness (via tools/verify_draw.py) and timing.

Why tools/verify_draw.py: it is the project's independent, stdlib-only reading of FAIRNESS.md,
sharing no code with the server. Loading it by path keeps the suite on the same verifier the
docs tell users to run.
"""
import hashlib
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("verify_draw", REPO / "tools" / "verify_draw.py")
verify_draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_draw)

PLAYER_KEYS = ("userId", "name", "username", "regDate", "void")
ROUND_KEYS = ("round", "of", "index", "userId", "name", "username", "sentAt")


def player(p: dict) -> dict:
    return {k: p[k] for k in PLAYER_KEYS}


def round_body(r: dict) -> dict:
    """A round as it appears in a snapshot's `rounds` (the `round` message minus type/drawId)."""
    return {k: r[k] for k in ROUND_KEYS}


def assert_round_consistent(r: dict, started: dict) -> None:
    """One `round` message agrees with its draw's `started`."""
    entrants = started["entrants"]
    assert r["drawId"] == started["drawId"], r
    assert r["of"] == started["schedule"]["rounds"], r
    assert 0 <= r["index"] < len(entrants), r
    e = entrants[r["index"]]
    assert (r["userId"], r["name"], r["username"]) == (e["userId"], e["name"], e["username"]), \
        f"round {r['round']} names entrant {r['index']} as {r['name']!r}, entrants say {e}"


def assert_verifies(finished: dict, started: dict = None, rounds: list = None) -> dict:
    """The `finished` message verifies per FAIRNESS.md; the rounds shown match the picks.

    `rounds` are `round` bodies (messages or snapshot entries) for rounds 1..n in order.
    """
    rep = verify_draw.verify(finished["drawId"], finished["seed"], finished["entrants"], finished["rounds"],
                             finished["commitment"], finished["entrantsHash"],
                             [r["index"] for r in rounds] if rounds is not None else None)
    assert rep["commitmentOk"], "SHA-256(seed) does not match the commitment"
    assert rep["entrantsHashOk"], "entrantsHash does not match the canonical entrants"
    assert rep["picks"] == finished["picks"], f"picks {finished['picks']} != recomputed {rep['picks']}"
    assert player(finished["drawn"]) == player(rep["drawn"]), (finished["drawn"], rep["drawn"])
    assert finished["outcome"] == rep["outcome"]
    if finished["outcome"] == "winner":
        assert finished["winner"] == finished["drawn"] and finished["winner"]["void"] is False
    else:
        assert finished["winner"] is None and finished["drawn"]["void"] is True
    if started is not None:
        for k in ("drawId", "commitment", "entrantsHash", "entrants", "startedAt"):
            assert finished[k] == started[k], f"finished.{k} differs from started.{k}"
        assert finished["rounds"] == started["schedule"]["rounds"]
    if rounds is not None:
        assert [r["round"] for r in rounds] == list(range(1, finished["rounds"] + 1)), \
            f"rounds shown out of order or missing: {[r['round'] for r in rounds]}"
        assert rep["roundsOk"], f"shown indices {[r['index'] for r in rounds]} != picks {rep['picks']}"
    return rep


def assert_seed_matches(seed_hex: str, commitment: str) -> None:
    assert hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest() == commitment, "revealed seed does not match commitment"


def assert_schedule(started: dict, interval_ms: int, rounds: int = 10) -> None:
    """The plan's schedule is the fixed pace the server was started with: round 1 one interval
    after `started`, then one interval apart, and the result one interval after the last."""
    s = started["schedule"]
    assert s["rounds"] == rounds
    assert s["offsetsMs"] == [(i + 1) * interval_ms for i in range(rounds)], s
    assert s["finishOffsetMs"] == (rounds + 1) * interval_ms, s


def assert_on_time(started: dict, rounds: list, finished: dict = None, late_ms: float = 100.0,
                   early_ms: float = 5.0, unchecked: int = 0) -> None:
    """Every round's `sentAt` (and `finishedAt`) is when it was due, within tolerance: at
    `startedAt + offset`, or one full gap after the previous step's actual send when that one was
    late (PROTOCOL.md, `started`). Consecutive steps are never less than a gap apart. `rounds` are
    consecutive from round 1; the first `unchecked` of them only set when the next ones are due."""
    t0 = started["startedAt"]
    offsets = started["schedule"]["offsetsMs"] + [started["schedule"]["finishOffsetMs"]]
    steps = [(f"round {r['round']}", r["round"] - 1, r["sentAt"]) for r in rounds]
    if finished is not None:
        steps.append(("finished", len(offsets) - 1, finished["finishedAt"]))
    assert [i for _, i, _ in steps[:len(rounds)]] == list(range(len(rounds))), "rounds must start at 1, in order"
    prev_offset, prev_sent = 0, t0
    for n, (name, i, sent) in enumerate(steps):
        gap = offsets[i] - prev_offset
        due = max(t0 + offsets[i], prev_sent + gap)
        if n >= unchecked:
            assert due - early_ms <= sent <= due + late_ms, \
                f"{name} sent at +{sent - t0:.1f} ms, due +{due - t0:.1f} ms (planned +{offsets[i]} ms)"
        assert sent - prev_sent >= gap - early_ms, f"{name} only {sent - prev_sent:.1f} ms after the step before"
        prev_offset, prev_sent = offsets[i], sent


def assert_prompt(msgs, max_latency_ms: float) -> None:
    """Each `round` arrived within `max_latency_ms` of the server's own `sentAt` (not batched up)."""
    for m in msgs:
        if m.type == "round":
            lag = m.at - m["sentAt"]
            assert -20 <= lag <= max_latency_ms, f"round {m['round']} arrived {lag:.1f} ms after its sentAt"
