"""Cluster mode (issue 14, docs/SCALING.md "Faults"): the node running a draw is killed (-9)
while the draw is still loading its lists, before `started`. Nothing was planned, so there is no
seed to reveal; the other node takes the lapsed lease and publishes `failed` with code
`node_lost`, so its viewers stop waiting in "loading" within the lease's TTL (3 s), a full TTL
more seen free (issue 27: no takeover of a holder that may still be alive) and two checks (1 s
each), and the room takes a new draw.
"""
import time

from helpers import http
from helpers.datasource import USERS
from helpers.redis import start_when_watched
from helpers.wsclient import WSClient, run

BOUND_S = 3.0 + 3.0 + 2.0


def test_kill_9_while_loading_ends_the_loading_on_the_other_node(nodes, redis, data_source):
    a, b = nodes
    created = http.created_room(b)
    room, key = created["room"], created["hostKey"]
    data_source.hold(USERS)   # A's draw stays in "loading" until the test lets the lists go

    async def scenario():
        viewer = await WSClient.open(b.ws_url(room), name="viewer-b")
        try:
            await start_when_watched(redis, room, [viewer], 1, a, key)
            await viewer.wait_for(lambda m: m.type == "loading", 10)
            a.kill()
            killed_at = time.monotonic()
            failed, _ = await viewer.wait_for(lambda m: m.type in ("failed", "started", "aborted"), BOUND_S + 4)
            return failed, time.monotonic() - killed_at
        finally:
            await viewer.close()

    try:
        failed, took = run(scenario(), timeout=40)
    finally:
        data_source.release()
    assert failed.type == "failed" and failed["code"] == "node_lost", failed.raw
    print(f"loading ended {took:.2f} s after kill -9")
    assert took <= BOUND_S + 1.0, f"the loading ended {took:.2f} s after the kill"
    # A joiner now sees the room idle, and the host's next draw through B starts.
    status, snap = http.api(b, "GET", f"/api/rooms/{room}")
    assert status == 200 and snap["draw"] is None, snap
    assert http.start_draw(b, room, key).status == 202
