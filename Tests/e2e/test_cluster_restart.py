"""Cluster mode (issue 14, docs/SCALING.md "Redis restarts empty"): redis-server killed and
started again with an empty dataset (no persistence) while two nodes run. The rooms a node holds
in memory are written back to the registry by that node, so a room created before the restart is
still usable through both nodes: joined through the other node, and its draw, started there with
the same key, reaches the viewers of both.
"""
import asyncio

from helpers import http
from helpers.redis import start_when_watched, wait_until
from helpers.wsclient import WSClient, close_all, run


def _room_in_redis(redis, room: str) -> bool:
    return redis.command("EXISTS", f"live-draw:room:{room}") == ":1"


def test_a_room_held_by_a_node_survives_an_empty_redis_restart(nodes, redis):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        # A viewer on A keeps the room in A's memory across the restart.
        on_a = await WSClient.open(a.ws_url(room), name="viewer-a")
        clients = [on_a]
        try:
            await on_a.expect("snapshot")
            assert _room_in_redis(redis, room)
            redis.stop()
            redis.start()                      # empty: nothing was persisted
            assert not _room_in_redis(redis, room)
            for node in (a, b):
                await asyncio.to_thread(wait_until, lambda: http.api(node, "GET", "/healthz")[1]["status"] == "ok",
                                        20, "the node reconnected")
            await asyncio.to_thread(wait_until, lambda: _room_in_redis(redis, room), 10, "A wrote the room back")
            # B never held the room: it reads it from the rebuilt registry.
            on_b = await WSClient.open(b.ws_url(room), name="viewer-b")
            clients.append(on_b)
            await start_when_watched(redis, room, [on_b], 2, b, key, catch_up=True)
            return await asyncio.gather(*(c.collect_draw(timeout=20) for c in clients))
        finally:
            await close_all(clients)

    draw_a, draw_b = run(scenario(), timeout=60)
    assert draw_a[-1].type == "finished" and draw_b[-1].type == "finished"
    assert [m.raw for m in draw_a if m.type in ("round", "finished")] == \
        [m.raw for m in draw_b if m.type in ("round", "finished")]
