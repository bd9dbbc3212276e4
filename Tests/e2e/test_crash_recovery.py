"""kill -9 in the middle of a draw: the next server on the same data directory serves the draw as
`interrupted`, with its seed revealed, matching the commitment viewers saw, and verifiable.

docs/STORAGE.md ("After a crash") and PROTOCOL.md section 5.2. The process is killed with SIGKILL,
so nothing of the server's own shutdown runs: what survives is what was on disk.
"""
import asyncio

from helpers import draw, http
from helpers.wsclient import WSClient, run

# Long enough that the kill, a few milliseconds after round 3 arrives, lands well before round 4.
INTERVAL_MS = 300
KILL_AFTER_ROUND = 3


def _start(launch, data_dir):
    # The server's default loading notice: this test follows rounds, not `loading`.
    return launch(round_interval_ms=INTERVAL_MS, data_dir=str(data_dir), loading_notice_ms=None)


def test_kill_9_mid_draw_leaves_an_interrupted_verifiable_record(launch, tmp_path):
    data_dir = tmp_path / "data"
    first = _start(launch, data_dir)
    try:
        async def until_round_3():
            viewer = await WSClient.open(first.ws_url("lobby"), name="viewer")
            try:
                await viewer.expect("snapshot")
                resp = await asyncio.to_thread(http.start_draw, first, "lobby", first.lobby_key)
                assert resp.status == 202, resp.body
                started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=10)
                await viewer.wait_for(lambda m: m.type == "round" and m["round"] == KILL_AFTER_ROUND, timeout=10)
                rounds = [m.data for m in viewer.log if m.type == "round"]
                # A read queues behind the round stamps on the server's storage thread, so this
                # answer also proves round 3 is on disk: the kill cannot race its write.
                running = await asyncio.to_thread(http.request, first, "GET", f"/api/draws/{started['drawId']}")
                first.kill()
                return started.data, rounds, running
            finally:
                await viewer.close()

        started, seen, running = run(until_round_3(), timeout=30)
    finally:
        first.kill()
        print(f"---- first live-draw log (killed) ----\n{first.log_text()}")

    assert [r["round"] for r in seen] == [1, 2, 3], f"viewer saw rounds {[r['round'] for r in seen]} before the kill"
    assert running.status == 200, running.body
    before = running.json
    assert before["status"] == "running"
    assert before["seed"] is None, "a running draw's record must not show its seed"
    assert [r["round"] for r in before["rounds"]] == [1, 2, 3]

    second = _start(launch, data_dir)
    try:
        resp = http.request(second, "GET", f"/api/draws/{started['drawId']}")
        history = http.request(second, "GET", "/api/rooms/lobby/draws")
    finally:
        second.stop()
        print(f"---- second live-draw log ----\n{second.log_text()}")

    assert resp.status == 200, resp.body
    rec = resp.json
    assert rec["status"] == "interrupted"
    assert rec["room"] == "lobby"
    for k in ("drawId", "commitment", "entrantsHash", "entrants", "schedule"):
        assert rec[k] == started[k], f"record {k} differs from what started published"
    assert rec["startedAt"] == started["startedAt"]
    assert isinstance(rec["finishedAt"], (int, float)) and rec["finishedAt"] >= started["startedAt"]
    assert rec["outcome"] is None and rec["winner"] is None, "an interrupted draw announced no result"

    # The seed is revealed and is the one behind the commitment published before round 1.
    seed = rec["seed"]
    assert isinstance(seed, str) and len(seed) == 64
    draw.assert_seed_matches(seed, started["commitment"])

    # Rounds 1-3 were shown and recorded with the very sentAt the viewer got; 4-10 never were.
    rounds = rec["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, 11))
    for shown, r in zip(seen, rounds[:KILL_AFTER_ROUND]):
        assert r["sentAt"] == shown["sentAt"], f"round {r['round']}: recorded {r['sentAt']}, sent {shown['sentAt']}"
        assert r["index"] == shown["index"]
    assert all(r["sentAt"] is None for r in rounds[KILL_AFTER_ROUND:]), [r["sentAt"] for r in rounds]
    assert rec["roundsShown"] == KILL_AFTER_ROUND

    # Verifiable per FAIRNESS.md with the independent verifier: each shown pick, then the whole plan.
    n = len(started["entrants"])
    for r in rounds[:KILL_AFTER_ROUND]:
        assert draw.verify_draw.pick_index(bytes.fromhex(seed), started["drawId"], r["round"], n) == r["index"]
    rep = draw.verify_draw.verify(started["drawId"], seed, started["entrants"], started["schedule"]["rounds"],
                                  started["commitment"], started["entrantsHash"], [r["index"] for r in seen])
    assert rep["commitmentOk"] and rep["entrantsHashOk"] and rep["roundsOk"]
    assert rep["picks"] == rec["picks"] == [r["index"] for r in rounds]
    assert rec["verified"] is True

    # The room's history lists it as interrupted.
    assert history.status == 200, history.body
    summaries = [d for d in history.json["draws"] if d["drawId"] == started["drawId"]]
    assert [d["status"] for d in summaries] == ["interrupted"]
    assert summaries[0]["roundsShown"] == KILL_AFTER_ROUND
