"""The server under each non-default `--event-loop` (the whole suite runs the default, libev).

What a loop must get right, end to end: timers (rounds on time, presence coalescing), wake-ups
from other threads (a draw started over HTTP loads its players on a background task and comes back
through the inbox, `lws_cancel_service`), WebSocket input read by our own epoll set, and a clean
shutdown. README Configuration, `--event-loop`.
"""
import asyncio
import signal

import pytest

from conftest import LATE_MS
from helpers import draw, http
from helpers.wsclient import WSClient, close_all, open_many, run

NON_DEFAULT_LOOPS = ["poll"]
INTERVAL_MS = 100
EXIT_WITHIN_S = 5.0


@pytest.mark.parametrize("loop", NON_DEFAULT_LOOPS)
def test_a_draw_runs_on_time_and_the_server_stops_cleanly(launch, loop):
    server = launch(event_loop=loop, round_interval_ms=INTERVAL_MS)
    other = http.create_room(server, "other-room")
    assert other.status == 201, other.body

    async def scenario():
        watchers = await open_many(server.ws_url("lobby"), 5, prefix="w")
        bystander = await WSClient.open(server.ws_url("other-room"), name="bystander")
        everyone = watchers + [bystander]
        try:
            for c in everyone:
                await c.expect("snapshot")
            await asyncio.gather(*(c.wait_viewers(5, timeout=5) for c in watchers))
            # Started over HTTP: the players load on a task, and the result wakes the loop.
            resp = await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            seqs = await asyncio.gather(*(c.collect_draw(timeout=10) for c in watchers))
            late = await WSClient.open(server.ws_url("lobby"), name="late")
            everyone.append(late)
            snap = await late.expect("snapshot")
            # A start over the WebSocket: input read from our epoll set inside the loop.
            await bystander.send_json({"type": "start", "hostKey": other.json["hostKey"]})
            await bystander.wait_for(lambda m: m.type == "round" and m["round"] == 2, timeout=10)
            server.signal(signal.SIGTERM)
            server.signal(signal.SIGTERM)
            ends = await asyncio.gather(*(c.expect_close(timeout=EXIT_WITHIN_S) for c in everyone))
            code = await asyncio.to_thread(server.wait, EXIT_WITHIN_S)
        finally:
            await close_all(everyone)
        return seqs, snap, ends, code

    seqs, snap, ends, code = run(scenario(), timeout=60)
    for seq in seqs:
        assert [m.type for m in seq] == ["loading", "started"] + ["round"] * 10 + ["finished"], [m.type for m in seq]
    started, rounds, finished = seqs[0][1], seqs[0][2:12], seqs[0][12]
    draw.assert_on_time(started.data, [r.data for r in rounds], finished.data, late_ms=LATE_MS)
    draw.assert_verifies(finished.data, started.data, [r.data for r in rounds])
    assert snap["lastResult"]["drawId"] == finished["drawId"]
    assert code == 0, f"exit status {code} (None = still running {EXIT_WITHIN_S}s after SIGTERM)"
    assert all(closed.code == 1001 for closed, _ in ends), [closed for closed, _ in ends]
