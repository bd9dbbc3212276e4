"""The checker on hand-made transcripts: a clean run passes, and each way of breaking each promise
is caught (under its rule). No server: the draws here are computed from a seed with
tools/verify_draw.py, as the server would draw them."""
import copy
import hashlib

import pytest

import checker

SEED = "00" * 31 + "2a"
OTHER_SEED = "11" * 32
ENTRANTS = [{"userId": 10 + i, "name": f"P{i}", "username": f"p{i}", "regDate": "2020-01-01", "void": False}
            for i in range(4)]
X = "a" * 32
Y = "b" * 32
T0 = 1_700_000_000_000.0
ROUNDS = 4


EHASH = hashlib.sha256(checker.verify_draw.canonical_entrants(ENTRANTS)).hexdigest()


def commitment(seed=SEED):
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def pick(draw_id, n, seed=SEED):
    return checker.verify_draw.pick_index(bytes.fromhex(seed), draw_id, n, len(ENTRANTS))


def started(draw_id, t=T0, seed=SEED):
    return {"type": "started", "drawId": draw_id, "entrants": ENTRANTS, "entrantCount": len(ENTRANTS),
            "commitment": commitment(seed), "entrantsHash": EHASH,
            "schedule": {"rounds": ROUNDS, "offsetsMs": [200 * (i + 1) for i in range(ROUNDS)],
                         "finishOffsetMs": 200 * (ROUNDS + 1)}, "startedAt": t}


def rnd(draw_id, n, t=T0, seed=SEED, index=None):
    i = pick(draw_id, n, seed) if index is None else index
    e = ENTRANTS[i]
    return {"type": "round", "drawId": draw_id, "round": n, "of": ROUNDS, "index": i, "userId": e["userId"],
            "name": e["name"], "username": e["username"], "sentAt": t + 200 * n}


def finished(draw_id, t=T0, seed=SEED):
    rep = checker.verify_draw.verify(draw_id, seed, ENTRANTS, ROUNDS)
    return {"type": "finished", "drawId": draw_id, "entrants": ENTRANTS, "seed": seed,
            "commitment": commitment(seed), "entrantsHash": EHASH,
            "picks": rep["picks"], "rounds": ROUNDS, "outcome": "winner", "drawn": rep["drawn"],
            "winner": rep["drawn"], "startedAt": t, "finishedAt": t + 200 * (ROUNDS + 1)}


def aborted(draw_id, shown, seed=SEED, reason="interrupted"):
    return {"type": "aborted", "drawId": draw_id, "reason": reason, "roundsShown": shown, "seed": seed}


def snapshot(draw=None, last=None):
    return {"type": "snapshot", "protocol": 1, "viewers": 1, "draw": draw, "lastResult": last}


def msgs(*datas, t=T0):
    return [{"at": t + 10 * i, "data": d} for i, d in enumerate(datas)]


def whole_draw(draw_id, t=T0, seed=SEED):
    return [started(draw_id, t, seed)] + [rnd(draw_id, n, t, seed) for n in range(1, ROUNDS + 1)] \
        + [finished(draw_id, t, seed)]


def viewer(name, *segments):
    return {"viewer": name, "segments": [
        {"node": f"n{i}", "messages": msgs(*seg), "open_at_end": i == len(segments) - 1, "closed_at": None}
        for i, seg in enumerate(segments)]}


def record(draw_id, status="finished", seed=SEED):
    return {"drawId": draw_id, "status": status, "seed": seed, "commitment": commitment(seed) if seed else None,
            "entrants": ENTRANTS, "roundsShown": ROUNDS}


def history(*records, nodes=("n0", "n1", "n2")):
    return {n: {"listing": [{"drawId": r["drawId"], "status": r["status"]} for r in records],
                "listing_error": None,
                "records": {r["drawId"]: {"status": 200, "body": dict(r)} for r in records}} for n in nodes}


def clean():
    ts = [viewer(f"v{i}", [snapshot()] + whole_draw(X) + whole_draw(Y, T0 + 5000)) for i in range(3)]
    return ts, history(record(X), record(Y))


def rules(ts, hs, accepted=None):
    return {v.rule for v in checker.check(ts, hs, accepted)}


def test_a_clean_run_keeps_every_promise():
    ts, hs = clean()
    assert checker.check(ts, hs, 2) == []


def test_a_joiner_mid_draw_and_a_viewer_that_reconnects_keep_every_promise():
    ts, hs = clean()
    running = {"phase": "running", "drawId": X, "entrantCount": 4, "commitment": commitment(), "startedAt": T0,
               "rounds": [{k: v for k, v in rnd(X, n).items() if k not in ("type", "drawId")} for n in (1, 2)]}
    fin = finished(X)
    last = {k: v for k, v in fin.items() if k != "type"}
    ts.append(viewer("late", [snapshot(running), rnd(X, 2), rnd(X, 3), rnd(X, 4), fin]))
    # Joined mid-draw, lost its connection, came back after the end: the snapshot's lastResult.
    ts.append(viewer("back", [snapshot(running), rnd(X, 3)], [snapshot(None, last)] + whole_draw(Y, T0 + 5000)))
    assert checker.check(ts, hs, 2) == []


# ---- promise 1: one draw at a time ------------------------------------------------------------

def test_rounds_of_an_old_draw_inside_a_new_one_break_promise_1():
    ts, hs = clean()
    seg = [snapshot(), started(X), rnd(X, 1), aborted(X, 1), started(Y, T0 + 3000), rnd(Y, 1, T0 + 3000),
           rnd(X, 2, T0 + 3000), rnd(Y, 2, T0 + 3000)]
    ts[0] = viewer("v0", seg)
    assert 1 in rules(ts, hs)


def test_started_of_a_draw_while_another_runs_breaks_promise_1():
    ts, hs = clean()
    ts[0] = viewer("v0", [snapshot(), started(X), rnd(X, 1), started(Y, T0 + 5000)] + whole_draw(Y, T0 + 5000)[1:])
    assert 1 in rules(ts, hs)


def test_two_draws_running_at_once_by_the_servers_clock_breaks_promise_1():
    """Each viewer's own order looks fine, but X's round 4 was sent after Y had started."""
    ts, hs = clean()
    late = whole_draw(X)
    late[4] = dict(late[4], sentAt=T0 + 5100)   # round 4, sent 100 ms after Y's startedAt
    ts[0] = viewer("v0", [snapshot()] + late + whole_draw(Y, T0 + 5000))
    assert 1 in rules(ts, hs)


# ---- promise 2: same rounds, same end -------------------------------------------------------

def test_a_round_after_the_draws_end_breaks_promise_2():
    ts, hs = clean()
    ts[0] = viewer("v0", [snapshot()] + whole_draw(X) + [rnd(X, 4)] + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_a_round_shown_with_different_content_breaks_promise_2():
    ts, hs = clean()
    bad = whole_draw(X)
    bad[2] = rnd(X, 2, index=(pick(X, 2) + 1) % 4)
    ts[1] = viewer("v1", [snapshot()] + bad + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_a_round_delivered_twice_breaks_promise_2():
    ts, hs = clean()
    d = whole_draw(X)
    ts[1] = viewer("v1", [snapshot()] + d[:3] + [d[2]] + d[3:] + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_two_different_ends_of_one_draw_break_promise_2():
    """Some viewers were told `interrupted` (the takeover), others `finished` (the woken node)."""
    ts, hs = clean()
    ts[0] = viewer("v0", [snapshot(), started(X), rnd(X, 1), rnd(X, 2), aborted(X, 2)] + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_two_ends_on_one_connection_break_promise_2():
    ts, hs = clean()
    ts[0] = viewer("v0", [snapshot()] + whole_draw(X) + [aborted(X, 4)] + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_ends_with_different_seeds_break_promise_2():
    ts, hs = clean()
    other = finished(X)
    other["seed"] = OTHER_SEED
    ts[2] = viewer("v2", [snapshot()] + whole_draw(X)[:-1] + [other] + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


def test_a_viewer_connected_throughout_that_never_gets_the_end_breaks_promise_2():
    ts, hs = clean()
    ts[2] = viewer("v2", [snapshot()] + whole_draw(X)[:-1])
    assert 2 in rules(ts, hs)


def test_a_reconnect_snapshot_hiding_a_finished_result_breaks_promise_2():
    """Reconnected while X ran, then shown the room idle without X's result although X finished."""
    ts, hs = clean()
    ts[2] = viewer("v2", [snapshot()] + whole_draw(X)[:3], [snapshot(None, None)])
    ts[2]["segments"][0]["closed_at"] = T0 + 30_000   # open long past X's end
    assert 2 in rules(ts, hs)


def test_an_aborted_that_counts_fewer_rounds_than_were_shown_breaks_promise_2():
    ts, hs = clean()
    hs = history(record(X, "interrupted"), record(Y))
    for i in range(3):
        ts[i] = viewer(f"v{i}", [snapshot(), started(X), rnd(X, 1), rnd(X, 2), rnd(X, 3), aborted(X, 2)]
                       + whole_draw(Y, T0 + 5000))
    assert 2 in rules(ts, hs)


# ---- promise 3: one recorded end, the same on every node ---------------------------------

def test_a_draw_still_running_in_the_history_breaks_promise_3():
    ts, _ = clean()
    hs = history(record(X, "running", seed=None), record(Y))
    assert 3 in rules(ts, hs)


def test_nodes_reporting_different_ends_break_promise_3():
    ts, hs = clean()
    hs["n1"]["records"][X]["body"]["status"] = "interrupted"
    assert 3 in rules(ts, hs)


def test_a_listing_that_disagrees_with_the_record_breaks_promise_3():
    ts, hs = clean()
    hs["n2"]["listing"][0]["status"] = "running"
    assert 3 in rules(ts, hs)


def test_a_record_that_disagrees_with_what_viewers_saw_breaks_promise_3():
    """Viewers were told `finished`; every node records `interrupted`."""
    ts, _ = clean()
    hs = history(record(X, "interrupted"), record(Y))
    assert 3 in rules(ts, hs)


def test_a_draw_listed_twice_breaks_promise_3():
    ts, hs = clean()
    hs["n0"]["listing"].append(dict(hs["n0"]["listing"][0]))
    assert 3 in rules(ts, hs)


def test_a_record_with_another_seed_than_viewers_saw_breaks_promise_3():
    ts, hs = clean()
    for h in hs.values():
        h["records"][X]["body"]["seed"] = OTHER_SEED
        h["records"][X]["body"]["commitment"] = commitment(OTHER_SEED)
    assert 3 in rules(ts, hs)


# ---- promise 4: seed and commitment ----------------------------------------------------------

def test_a_seed_that_does_not_match_the_commitment_breaks_promise_4():
    ts, hs = clean()
    bad = [snapshot(), started(X)] + [rnd(X, n) for n in (1, 2)] + [aborted(X, 2, seed=OTHER_SEED)]
    for i in range(3):
        ts[i] = viewer(f"v{i}", bad + whole_draw(Y, T0 + 5000))
    hs = history(record(X, "interrupted"), record(Y))
    assert 4 in rules(ts, hs)


def test_a_shown_round_the_seed_does_not_pick_breaks_promise_4():
    """Every viewer saw the same wrong round 3: consistent, but not what the seed draws."""
    ts, hs = clean()
    d = whole_draw(X)
    d[3] = rnd(X, 3, index=(pick(X, 3) + 1) % 4)
    for i in range(3):
        ts[i] = viewer(f"v{i}", [snapshot()] + d + whole_draw(Y, T0 + 5000))
    assert 4 in rules(ts, hs)


def test_a_finished_whose_picks_do_not_verify_breaks_promise_4():
    ts, hs = clean()
    d = whole_draw(X)
    d[-1] = dict(d[-1], picks=[(p + 1) % 4 for p in d[-1]["picks"]])
    for i in range(3):
        ts[i] = viewer(f"v{i}", [snapshot()] + d + whole_draw(Y, T0 + 5000))
    assert 4 in rules(ts, hs)


# ---- promise 5: nothing missing --------------------------------------------------------------

def test_a_draw_missing_from_a_nodes_listing_breaks_promise_5():
    ts, hs = clean()
    hs["n1"]["listing"] = [l for l in hs["n1"]["listing"] if l["drawId"] != X]
    assert 5 in rules(ts, hs)


def test_a_draw_a_node_cannot_find_breaks_promise_5():
    ts, hs = clean()
    hs["n2"]["records"][X] = {"status": 404, "body": {"error": {"code": "unknown_draw"}}}
    assert 5 in rules(ts, hs)


def test_a_history_that_cannot_be_read_breaks_promise_5():
    ts, hs = clean()
    hs["n0"]["listing"], hs["n0"]["listing_error"] = None, "503 cluster_unavailable"
    assert 5 in rules(ts, hs)


def test_an_accepted_start_that_became_nothing_breaks_promise_5():
    ts, hs = clean()
    assert 5 in rules(ts, hs, accepted=3)


@pytest.mark.parametrize("rule", [1, 2, 3, 4, 5])
def test_every_rule_has_a_violation_shown_above(rule):
    """Guard: the tests above cover each promise (a rule nobody can fail would pass anything)."""
    import sys
    mod = sys.modules[__name__]
    names = [n for n in dir(mod) if n.startswith("test_") and n.endswith(f"promise_{rule}")]
    assert names, f"no test shows promise {rule} failing"


def test_rounds_after_a_snapshot_that_showed_the_room_idle_break_promise_2():
    """A node's catch-up snapshot says no draw runs, then the running draw's rounds follow."""
    ts, hs = clean()
    d = whole_draw(Y, T0 + 5000)
    ts[1] = viewer("v1", [snapshot()] + whole_draw(X) + d[:3] + [snapshot(None, {k: v for k, v in finished(X).items()
                                                                              if k != "type"})] + d[3:])
    found = [v for v in checker.check(ts, hs, 2) if v.rule == 2]
    assert found and "snapshot that showed the room without it" in found[0].text


# ---- issue 36: the same rounds on every node, and late joiners --------------------------------

def _partitioned_draw(others_last: int, runner_end):
    """X run on n0: n0's viewer saw every round and `runner_end`; the viewers on n1 and n2 saw
    rounds up to `others_last` and then `aborted` saying that many rounds were shown. Y follows."""
    ys = whole_draw(Y, T0 + 5000)
    runner = [started(X)] + [rnd(X, n) for n in range(1, ROUNDS + 1)] + [runner_end]
    cut = [started(X)] + [rnd(X, n) for n in range(1, others_last + 1)] + [aborted(X, others_last)]
    return [viewer("v0", [snapshot()] + runner + ys)] + [viewer(f"v{i}", [snapshot()] + cut + ys) for i in (1, 2)]


def test_rounds_one_viewer_saw_that_another_connected_throughout_never_saw_break_promise_2():
    """The cluster's end agrees (`aborted` after 3 rounds everywhere, the record too) and no
    viewer's own count is wrong, but v1 and v2 were never shown round 3, which v0 was."""
    ts = _partitioned_draw(2, aborted(X, 3))
    ts[0]["segments"][0]["messages"] = msgs(*([snapshot(), started(X)] + [rnd(X, n) for n in (1, 2, 3)]
                                              + [aborted(X, 3)] + whole_draw(Y, T0 + 5000)))
    for t in ts[1:]:
        t["segments"][0]["messages"] = msgs(*([snapshot(), started(X), rnd(X, 1), rnd(X, 2), aborted(X, 3)]
                                              + whole_draw(Y, T0 + 5000)))
    hs = history(dict(record(X, "interrupted"), roundsShown=3), record(Y))
    found = checker.check(ts, hs, 2)
    assert [v.rule for v in found] == [2, 2], found
    assert all("never shown round(s) 3 that other viewers were shown" in v.text for v in found), found


def test_a_partition_near_the_end_shows_its_viewers_rounds_the_others_never_see_promise_2():
    """issue 36's partition-node-near-end on main: the cut-off node's viewers see rounds 3, 4 and
    `finished`; the others stop at round 2 and are told `aborted`."""
    ts = _partitioned_draw(2, finished(X))
    found = [v.text for v in checker.check(ts, history(record(X, "interrupted"), record(Y)), 2) if v.rule == 2]
    assert any("v1#0@n0: connected through draw" in t and "round(s) 3-4" in t for t in found), found


def test_a_viewer_that_only_joined_after_the_end_misses_no_round():
    ts, hs = clean()
    last = {k: v for k, v in finished(X).items() if k != "type"}
    ts.append(viewer("after", [snapshot(None, last)] + whole_draw(Y, T0 + 5000)))
    assert checker.check(ts, hs, 2) == []


def test_a_late_joiner_shown_a_draw_still_running_breaks_promise_3():
    ts, hs = clean()
    running = {"phase": "running", "drawId": X, "entrantCount": 4, "commitment": commitment(), "startedAt": T0,
               "rounds": [{k: v for k, v in rnd(X, n).items() if k not in ("type", "drawId")} for n in (1, 2)]}
    idle = snapshot(None, {k: v for k, v in finished(Y).items() if k != "type"})
    assert checker.check(ts, hs, 2, {"n0": idle, "n1": idle, "n2": idle}) == []
    found = checker.check(ts, hs, 2, {"n0": idle, "n1": snapshot(running), "n2": {"error": "TimeoutError()"}})
    assert [(v.rule, v.text.split(":")[0]) for v in found] == [(3, "node n1"), (3, "node n2")], found
    assert "still running (round 2)" in found[0].text
