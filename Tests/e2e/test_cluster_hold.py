"""Redis goes away mid-draw (issue 36, docs/SCALING.md "Durable before visible"): the node shows
nothing more that Redis has not acknowledged, so the draw holds at once, on its own node as on the
others, and keeps the draw (it is in its reconnect backoff, its token was not refused). Once Redis is back — empty, or with its data — its renewal takes the
lease back with the same token, and the draw goes on from where it stopped: every viewer on both
nodes sees the same rounds and the same end, and every node's history says `finished`.
"""
import asyncio
import time

import pytest

from helpers import http
from helpers.redis import launch_node, viewers_at_round, wait_until
from helpers.wsclient import close_all, run



@pytest.mark.parametrize("persisted", [True, False], ids=["redis-kept-its-data", "redis-came-back-empty"])
def test_a_draw_held_through_a_redis_outage_goes_on_alike_for_every_viewer(launch, redis, persisted):
    # 20 rounds: what is left after round 3 (3.4 s) would outlast the outage if the draw went on.
    a = launch_node(launch, redis, round_interval_ms=200, rounds=20)
    b = launch_node(launch, redis, round_interval_ms=200, rounds=20)
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        on_a, on_b = await viewers_at_round(redis, [a, b], room, key, a, at_round=3)
        try:
            if persisted:
                assert redis.command("SAVE") == "+OK"
            redis.stop()
            stopped_ms = time.time() * 1000
            # The outage's length (a fault being injected, not a wait for a condition): longer than
            # the lease's TTL (3 s), so the node's lease lapses meanwhile and is taken back after.
            await asyncio.sleep(5.0)
            await on_a.barrier()
            back_ms = time.time() * 1000
            redis.start()
            end_a, _ = await on_a.wait_for(lambda m: m.type in ("finished", "aborted", "failed"), 20)
            end_b, _ = await on_b.wait_for(
                lambda m: m.type in ("finished", "aborted", "failed") or (m.type == "snapshot" and m["lastResult"]), 20)
            return end_a, end_b, list(on_a.log), stopped_ms, back_ms
        finally:
            await close_all([on_a, on_b])

    end_a, end_b, log_a, stopped_ms, back_ms = run(scenario(), timeout=90)
    assert end_a.type == "finished", end_a.raw
    rounds = [m["round"] for m in log_a if m.type == "round"]
    assert rounds == list(range(1, 21)), f"A's viewer saw rounds {rounds}"
    # Nothing shown while Redis was away, but a round whose entry was acknowledged just before the
    # stop (in flight then, 200 ms apart, plus the viewer's receive).
    held = [m["round"] for m in log_a if m.type == "round" and stopped_ms + 300 < m.at < back_ms]
    assert held == [], f"rounds {held} were shown while Redis was away"
    assert any(m.at > back_ms for m in log_a if m.type == "round"), "the outage did not outlast the draw"
    if end_b.type == "snapshot":
        assert end_b["lastResult"]["drawId"] == end_a["drawId"] and end_b["lastResult"]["seed"] == end_a["seed"]
    else:
        assert end_b.raw == end_a.raw
    draw_id = end_a["drawId"]
    for node in (a, b):
        wait_until(lambda: http.api(node, "GET", f"/api/draws/{draw_id}")[1].get("status") == "finished", 20,
                   "the finished record on every node")
