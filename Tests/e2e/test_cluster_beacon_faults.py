"""A node that dies or pauses while its beacon draw waits for round R (docs/FAIRNESS.md §9,
docs/SCALING.md "Beacon draws" and "Faults"): two real nodes on one real redis-server, the fake
drand relay (helpers/fakedrand.py) holding R back, viewers (`live-draw.v1`) on both nodes.

The draw is provably waiting for R when the fault comes: the relay was asked for R and answered
425 (it serves R only once the test publishes it). Then:

- kill -9 of the running node: the other node takes the lease over and ends the draw `aborted`
  with reason `interrupted` and the seed (SHA-256 of it is the commitment); every viewer on the
  surviving node gets that one end and no round; its `GET /api/draws/ID` and the room's listing
  say `interrupted` with the seed; a new draw runs; the killed node, restarted on its data
  directory, says the same.
- SIGSTOP of the running node past its lease, the takeover, R published, SIGCONT: the woken node
  may ask the relay for R (that shows nothing), but its first round is refused by the cluster's
  record before any viewer sees it (issue 36, durable before visible), so it never shows a round
  and shows its viewer the takeover's end, the same bytes the other node's viewer got; both
  nodes' histories say `interrupted` with the seed, and no record gets R's randomness.

Both records keep the beacon (R, no randomness) and no pick: the seed was never used. And the
other side of the wait: kill -9 after R was fetched, mid-rounds: the takeover's record has R's
randomness and the picks keyed by it, the ones the viewer saw.
"""
import asyncio
import json
import signal
import time

from helpers import draw, http
from helpers.fakedrand import CHAIN_HASH, randomness_of, drand  # noqa: F401 (a fixture)
from helpers.redis import history_says, killed_at_round, launch_node, start_when_watched, wait_until
from helpers.wsclient import WSClient, close_all, run

MARGIN_MS = 1000        # R is 1-2 s after the start on the relay's 1 s chain
WAIT_MS = 30_000        # longer than the test: the draw must not give up on R by itself meanwhile
HELD_BACK_S = 3600.0    # the relay's lag while R is held back: 425 for R until the test publishes it
TAKEOVER_BOUND_S = 3.0 + 3.0 + 2.0 + 1.0  # docs/SCALING.md "A node dies mid-draw", as in test_cluster_one_history.py
ENDS = ("finished", "failed", "aborted")


def _beacon_nodes(launch, redis, drand, tmp_path):
    """Nodes A and B on the relay, which holds R back; a room created through B: (a, b, room, key)."""
    drand.lag_seconds = HELD_BACK_S
    a, b = (launch_node(launch, redis, beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=MARGIN_MS,
                        beacon_wait_ms=WAIT_MS, data_dir=str(tmp_path / name), round_interval_ms=100)
            for name in ("a", "b"))
    created = http.created_room(b)
    return a, b, created["room"], created["hostKey"]


def _just_answered(drand, r: int, timeout: float = 5.0) -> None:
    """Returns right after the relay was asked for R (and answered 425) once more: the node is
    then between two asks (they are `BeaconSettings.retryMs`, 250 ms, apart), none in flight."""
    seen = drand.round_fetches().count(r)
    deadline = time.monotonic() + timeout
    while drand.round_fetches().count(r) == seen:
        assert time.monotonic() < deadline, f"the relay was not asked for round {r} again: {drand.round_fetches()}"
        time.sleep(0.002)  # a tight poll of the relay's request log, so the fault lands between two asks


async def _waiting_for_r(redis, drand, viewers, room, key, runner):
    """Starts a beacon draw through `runner` once every viewer has its snapshot and both nodes
    listen; returns each viewer's `started` once the running node has asked for R and been told
    it is not published yet."""
    await start_when_watched(redis, room, viewers, 2, runner, key)
    started = [(await v.wait_for(lambda m: m.type == "started", 10))[0] for v in viewers]
    assert len({s.raw for s in started}) == 1, "every viewer got the same started"
    r = started[0]["beacon"]["round"]
    await asyncio.to_thread(wait_until, lambda: r in drand.round_fetches(), 10, f"the node to ask for round {r}")
    assert not any(m.type == "round" for v in viewers for m in v.log), "no pick before R"
    return started[0]


def _one_end_and_no_round(name, log, draw_id):
    """The viewer saw the draw's `started`, then exactly one end, and no round of it at all."""
    events = [m for m in log if m.get("drawId") == draw_id]
    assert [m.type for m in events] == ["started", "aborted"], f"{name}: {[m.raw[:160] for m in events]}"
    return events[-1]


def _assert_takeover_end(end, started):
    assert end.type == "aborted" and end["reason"] == "interrupted", end.raw
    assert end["drawId"] == started["drawId"] and end["roundsShown"] == 0, end.raw
    draw.assert_seed_matches(end["seed"], started["commitment"])


def _assert_record(node, started, seed):
    code, record = http.api(node, "GET", f"/api/draws/{started['drawId']}")
    assert code == 200 and record["status"] == "interrupted" and record["seed"] == seed, record
    assert record["roundsShown"] == 0 and record["rounds"] == [] and record["outcome"] is None, json.dumps(record, indent=1)
    beacon = record["beacon"]
    assert beacon["round"] == started["beacon"]["round"] and beacon["chain"] == CHAIN_HASH, beacon
    assert beacon["randomness"] is None and beacon["signature"] is None, "R was never fetched"
    rep = draw.verify_draw.verify_document(record)
    assert rep["ok"] and rep["seedUsed"] is False and rep["roundsChecked"] == 0, rep
    assert record["verified"] is True, "the server's own check agrees"
    return record


def test_kill_9_while_the_beacon_draw_waits_for_its_round_ends_it_interrupted_everywhere(launch, redis, drand, tmp_path):
    a, b, room, key = _beacon_nodes(launch, redis, drand, tmp_path)

    async def scenario():
        viewers = [await WSClient.open(a.ws_url(room), name="viewer-a"),
                   await WSClient.open(b.ws_url(room), name="viewer-b1"),
                   await WSClient.open(b.ws_url(room), name="viewer-b2")]
        on_b = viewers[1:]
        try:
            started = await _waiting_for_r(redis, drand, viewers, room, key, a)
            await asyncio.to_thread(_just_answered, drand, started["beacon"]["round"])
            a.kill()
            killed_at = time.monotonic()
            ends = [(await v.wait_for(lambda m: m.type in ENDS, 15))[0] for v in on_b]
            took = time.monotonic() - killed_at
            # R is published now: a new beacon draw through the surviving node runs to its end.
            drand.lag_seconds = 0.0
            resp = await asyncio.to_thread(http.start_draw, b, room, key)
            assert resp.status == 202, resp.body
            finished = [(await v.wait_for(lambda m: m.type in ENDS, 20))[0] for v in on_b]
            for v in on_b:
                await v.barrier()
            return started, ends, took, finished, [list(v.log) for v in on_b]
        finally:
            await close_all(viewers)

    started, ends, took, finished, logs = run(scenario(), timeout=45)
    print(f"taken over {took:.2f} s after kill -9")
    assert took <= TAKEOVER_BOUND_S, f"took {took:.2f} s"
    draw_id = started["drawId"]
    assert ends[0].raw == ends[1].raw, "the surviving node's viewers got different ends"
    _assert_takeover_end(ends[0], started)
    seed = ends[0]["seed"]
    for i, log in enumerate(logs):
        assert _one_end_and_no_round(f"viewer-b{i + 1}", log, draw_id).raw == ends[0].raw
        # Nothing of the old draw after its end; the new draw from its start to its end.
        after = log[log.index(next(m for m in log if m.raw == ends[0].raw)) + 1:]
        assert all(m.get("drawId") != draw_id for m in after)
    assert finished[0].raw == finished[1].raw and finished[0].type == "finished", finished[0].raw
    new_id = finished[0]["drawId"]
    assert new_id != draw_id and finished[0]["beacon"]["round"] > started["beacon"]["round"]
    assert finished[0]["beacon"]["randomness"] == randomness_of(finished[0]["beacon"]["round"]).hex()

    wait_until(lambda: history_says(b, room, draw_id, "interrupted", seed), 15, "B's history to say interrupted")
    taken_over = _assert_record(b, started, seed)

    # The killed node, restarted on its data directory, agrees.
    a.restart()
    wait_until(lambda: http.api(a, "GET", "/healthz")[1].get("cluster") == "up", 15, "A's Redis link")
    wait_until(lambda: history_says(a, room, draw_id, "interrupted", seed), 15, "A's history to say interrupted")
    record_a = _assert_record(a, started, seed)
    assert {k: record_a[k] for k in ("status", "seed", "commitment", "beacon", "roundsShown", "abortReason")} \
        == {k: taken_over[k] for k in ("status", "seed", "commitment", "beacon", "roundsShown", "abortReason")}
    assert history_says(b, room, draw_id, "interrupted", seed)
    assert history_says(a, room, new_id, "finished") and history_says(b, room, new_id, "finished")


def test_a_node_woken_after_a_takeover_of_its_beacon_draw_never_fetches_the_round(launch, redis, drand, tmp_path):
    a, b, room, key = _beacon_nodes(launch, redis, drand, tmp_path)

    async def scenario():
        on_a = await WSClient.open(a.ws_url(room), name="viewer-a")
        on_b = await WSClient.open(b.ws_url(room), name="viewer-b")
        try:
            started = await _waiting_for_r(redis, drand, [on_a, on_b], room, key, a)
            r = started["beacon"]["round"]
            await asyncio.to_thread(_just_answered, drand, r)
            a.signal(signal.SIGSTOP)
            try:
                end_b, _ = await on_b.wait_for(lambda m: m.type in ENDS, 15)
                # R is published while A sleeps: A may fetch it when it wakes, but nothing of it
                # may reach a viewer or the cluster's record.
                drand.lag_seconds = 0.0
            finally:
                a.signal(signal.SIGCONT)
            end_a, _ = await on_a.wait_for(lambda m: m.type in ENDS, 10)
            await asyncio.to_thread(wait_until, lambda: http.metric(a, "livedraw_cluster_fenced_out_total") >= 1, 10,
                                    "the woken node to have been refused")
            # A's own record ended and both viewers answered a ping: whatever the woken node
            # would have shown them is here by now.
            await asyncio.to_thread(wait_until, lambda: http.api(a, "GET", f"/api/draws/{started['drawId']}")[1]
                                    .get("status") == "interrupted", 10, "A's record to say interrupted")
            await on_a.barrier()
            await on_b.barrier()
            return started, end_a, end_b, list(on_a.log), list(on_b.log)
        finally:
            await close_all([on_a, on_b])

    started, end_a, end_b, log_a, log_b = run(scenario(), timeout=45)
    draw_id = started["drawId"]
    _assert_takeover_end(end_b, started)
    assert end_a.raw == end_b.raw, "the woken node's viewer saw another end than the other node's"
    for name, log in (("A", log_a), ("B", log_b)):
        assert _one_end_and_no_round(name, log, draw_id).raw == end_b.raw
        assert not [m for m in log if m.type == "round"], f"{name}'s viewer saw a round"
    seed = end_b["seed"]
    for node in (a, b):
        wait_until(lambda: history_says(node, room, draw_id, "interrupted", seed), 15, "the history to say interrupted")
        _assert_record(node, started, seed)


def test_kill_9_after_the_round_was_fetched_records_the_picks_keyed_by_it(launch, redis, drand, tmp_path):
    """The other side of the wait: R fetched, rounds shown, then kill -9. The takeover's record
    keeps R's randomness, and its picks are the ones the viewer saw (keyed by R, not the seed's)."""
    a, b, room, key = _beacon_nodes(launch, redis, drand, tmp_path)
    drand.lag_seconds = 0.0
    started, end, rounds, _ = run(killed_at_round(redis, room, b, a, key, at_round=3), timeout=40)
    aborted = end[-1]
    assert aborted.type == "aborted" and aborted["reason"] == "interrupted", aborted.raw
    seed, draw_id = aborted["seed"], started["drawId"]
    draw.assert_seed_matches(seed, started["commitment"])
    wait_until(lambda: history_says(b, room, draw_id, "interrupted", seed), 15, "B's history to say interrupted")
    _, record = http.api(b, "GET", f"/api/draws/{draw_id}")
    r = started["beacon"]["round"]
    assert record["beacon"]["round"] == r and record["beacon"]["randomness"] == randomness_of(r).hex(), record["beacon"]
    assert record["roundsShown"] == aborted["roundsShown"] >= 3
    assert [x["index"] for x in rounds] == record["picks"][:len(rounds)], "the record's picks are not the ones shown"
    rep = draw.verify_draw.verify_document(record)
    assert rep["ok"] and rep["beaconOk"] and rep["roundsChecked"] == record["roundsShown"], rep
    assert record["verified"] is True
