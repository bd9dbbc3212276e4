"""Cluster mode (issue 14, docs/SCALING.md "Redis goes away"): Redis goes away at round 9 of a
draw that runs on node A. Issue 36, durable before visible: A shows its own viewers nothing the
cluster does not hold, so the draw holds for A's viewers as for B's (test_cluster_hold.py holds
a longer draw). Once Redis is back, A appends the rest and both viewers get the outcome, not a
stall and not `interrupted`: the same `finished` bytes, or, on B when it read the view after the
end was folded in but before its subscription was back, a fresh `snapshot` whose `lastResult` is
that draw. Whether Redis kept its data (saved before it stopped) or came back empty.
"""
import asyncio
import time

import pytest

from helpers import http
from helpers.redis import launch_node, viewers_at_round
from helpers.wsclient import close_all, run


@pytest.mark.parametrize("persisted", [True, False], ids=["redis-kept-its-data", "redis-came-back-empty"])
def test_viewers_on_another_node_get_the_outcome_once_redis_is_back(launch, redis, persisted):
    a = launch_node(launch, redis, round_interval_ms=200)
    b = launch_node(launch, redis, round_interval_ms=200)
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        on_a, on_b = await viewers_at_round(redis, [a, b], room, key, a, at_round=9, watcher=1)
        try:
            if persisted:
                assert redis.command("SAVE") == "+OK"
            redis.stop()
            # No end while Redis is away, on A either (a round whose entry Redis acknowledged just
            # before it stopped may still arrive: it is durable).
            with pytest.raises(asyncio.TimeoutError):
                await on_a.wait_for(lambda m: m.type in ("finished", "aborted", "failed"), 2.0)
            redis.start()
            back_at = time.monotonic()
            end_a = (await on_a.collect_draw(timeout=20))[-1]
            end_b, _ = await on_b.wait_for(
                lambda m: m.type in ("finished", "aborted", "failed") or (m.type == "snapshot" and m["lastResult"]), 20)
            return end_a, end_b, time.monotonic() - back_at
        finally:
            await close_all([on_a, on_b])

    end_a, end_b, took = run(scenario(), timeout=60)
    assert end_a.type == "finished"
    if end_b.type == "snapshot":
        assert end_b["draw"] is None and end_b["lastResult"]["drawId"] == end_a["drawId"], end_b.raw
        assert end_b["lastResult"]["seed"] == end_a["seed"] and end_b["lastResult"]["winner"] == end_a["winner"]
    else:
        assert end_b.type == "finished", end_b.raw
        assert end_b.raw == end_a.raw
    print(f"B's viewer got the outcome {took:.2f} s after Redis was back")
    # Bound: the longest reconnect delay (5 s) plus one housekeeping tick, with slack.
    assert took <= 5.0 + 1.0 + 2.0
