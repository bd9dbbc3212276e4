"""Cluster mode (issue 14, docs/SCALING.md): several live-draw nodes on one real redis-server.

Each test starts its own redis-server (free port, temporary directory) and two nodes on it, each
with its own data directory. What is checked: a room created on one node is usable through the
other; one draw started on either node reaches the viewers of both, the same bytes in the same
order; a second start on the other node while a draw runs is refused; with Redis gone, new rooms
and draws get 503 `cluster_unavailable` and `/healthz` says degraded, and everything recovers by
itself once Redis is back (those faults: test_cluster_faults.py).
"""
import asyncio
import time

from helpers import http, keys
from helpers.redis import numsub, start_when_watched, wait_until
from helpers.wsclient import WSClient, close_all, open_many, run



def _draw_messages(msgs):
    """What every viewer must see alike: the draw's messages, byte for byte (other nodes forward
    the running node's bytes; rounds carry the cluster's viewer count)."""
    return [m.raw for m in msgs]


async def _viewer_at_round(node, starter, room: str, key: str, n: int) -> WSClient:
    """A viewer of `room` on `node`, once a draw started through `starter` has shown round `n`."""
    viewer = await WSClient.open(node.ws_url(room), name=f"viewer-{node.port}")
    await viewer.expect("snapshot")
    resp = await asyncio.to_thread(http.start_draw, starter, room, key)
    assert resp.status == 202, resp.body
    await viewer.wait_for(lambda m: m.type == "round" and m["round"] == n, 10)
    return viewer


def test_a_room_created_on_one_node_is_joined_rotated_and_deleted_through_the_other(nodes):
    a, b = nodes
    room = http.created_room(a, "shared")
    status, body = http.api(b, "GET", "/api/rooms/shared")
    assert status == 200 and body["room"] == "shared", body
    # Creating it again through B: the name is taken cluster-wide.
    assert http.create_room(b, "shared").status == 409

    resp = http.request(b, "POST", "/api/rooms/shared/key", may_carry_key=True,
                        headers={"Content-Type": "application/json", "Authorization": f"Bearer {room['hostKey']}"})
    assert resp.status == 200, resp.body
    rotated = resp.json
    keys.register(rotated["hostKey"])
    # A knew the room (it created it), yet the old key no longer works there.
    assert http.start_draw(a, "shared", room["hostKey"]).status == 403

    status, _ = http.api(a, "DELETE", "/api/rooms/shared", key=rotated["hostKey"])
    assert status == 204
    assert http.api(b, "GET", "/api/rooms/shared")[0] == 404


def test_one_draw_reaches_viewers_on_both_nodes_in_order(nodes, redis):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        on_a = await open_many(a.ws_url(room), 3, prefix="a")
        on_b = await open_many(b.ws_url(room), 3, prefix="b")
        clients = on_a + on_b
        try:
            await start_when_watched(redis, room, clients, 2, a, key)
            return await asyncio.gather(*(c.collect_draw(timeout=20) for c in clients))
        finally:
            await close_all(clients)

    draws = run(scenario(), timeout=40)
    first = _draw_messages(draws[0])
    assert [m.type for m in draws[0]] == ["loading", "started"] + ["round"] * 10 + ["finished"], first
    for other in draws[1:]:
        assert _draw_messages(other) == first
    # The record, kept by A once the result was on its disk, reads the same through B.
    draw_id = draws[0][-1]["drawId"]
    on_a = http.request(a, "GET", f"/api/draws/{draw_id}")
    assert on_a.status == 200
    # The shared history takes the finished line once A's outbox sent it (docs/SCALING.md "One
    # history": bounded); until then B may serve the `running` line shared at the start.
    wait_until(lambda: http.request(b, "GET", f"/api/draws/{draw_id}").body == on_a.body, 10, "the same record on B")


def test_a_host_on_one_node_starts_a_room_created_on_the_other_and_a_second_start_is_refused(nodes, redis):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        viewer = await WSClient.open(a.ws_url(room), name="viewer-a")
        host = await WSClient.open(b.ws_url(room), name="host-b")
        try:
            await start_when_watched(redis, room, [viewer, host], 2)
            await host.send_json({"type": "start", "hostKey": key})
            started = await viewer.wait_for(lambda m: m.type == "started", 10)
            # The draw runs on B: a start through A's API meanwhile is refused.
            resp = await asyncio.to_thread(http.start_draw, a, room, key)
            assert resp.status == 409 and resp.error_code() == "draw_running", resp.body
            # A late joiner on A, mid-draw, gets a snapshot of the running draw.
            await viewer.wait_for(lambda m: m.type == "round", 10)
            late = await WSClient.open(a.ws_url(room), name="late-a")
            snap = (await late.expect("snapshot")).data
            await late.close()
            rest = await viewer.collect_draw(timeout=20)
            host_msgs = await host.collect_draw(timeout=20)
            return started, snap, rest, host_msgs
        finally:
            await close_all([viewer, host])

    started, snap, rest, host_msgs = run(scenario(), timeout=40)
    assert snap["draw"] is not None and snap["draw"]["phase"] == "running", snap
    assert snap["draw"]["drawId"] == started[0]["drawId"]
    assert rest[-1].type == "finished"
    assert host_msgs[-1].type == "finished"
    assert rest[-1]["drawId"] == host_msgs[-1]["drawId"]


def test_a_late_joiner_on_a_node_without_viewers_gets_the_running_draw(nodes):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        viewer = await _viewer_at_round(a, a, room, key, 3)
        try:
            # B has had no viewer in this room: it reads the draw's view from Redis.
            late = await WSClient.open(b.ws_url(room), name="late-b")
            try:
                snap = (await late.expect("snapshot")).data
                late_rest = await late.collect_draw(timeout=20)
            finally:
                await late.close()
            rest = await viewer.collect_draw(timeout=20)
            return snap, late_rest, rest
        finally:
            await viewer.close()

    snap, late_rest, rest = run(scenario(), timeout=40)
    draw = snap["draw"]
    assert draw is not None and draw["phase"] == "running", snap
    assert draw["drawId"] == rest[-1]["drawId"]
    shown = len(draw["rounds"])
    assert 3 <= shown <= 10, draw
    late_rounds = [m["round"] for m in late_rest if m.type == "round"]
    # Every round after the snapshot's, in order, then the same result as A's viewer.
    assert late_rounds == list(range(shown + 1, 11)), (shown, late_rounds)
    assert late_rest[-1].type == "finished"
    assert _draw_messages(late_rest[-1:]) == _draw_messages(rest[-1:])


def test_viewer_counts_are_summed_across_nodes(nodes):
    a, b = nodes
    room = http.created_room(a)["room"]

    async def scenario():
        on_a = await open_many(a.ws_url(room), 2, prefix="a")
        on_b = await open_many(b.ws_url(room), 3, prefix="b")
        try:
            for c in on_a + on_b:
                await c.expect("snapshot")
            # Each node reports once a second; within a few, both show all five.
            await on_a[0].wait_for(lambda m: m.type == "presence" and m["viewers"] == 5, 10)
            await on_b[0].wait_for(lambda m: m.type == "presence" and m["viewers"] == 5, 10)
            await close_all(on_b)
            await on_a[0].wait_for(lambda m: m.type == "presence" and m["viewers"] == 2, 10)
        finally:
            await close_all(on_a + on_b)

    run(scenario(), timeout=40)


def test_a_rooms_own_list_and_settings_reach_the_node_that_runs_its_draw(nodes):
    """Issue 15: the list and settings are kept in Redis with the room, so a draw started through
    another node than the one that took the upload draws from that list with those settings."""
    from helpers.rooms import put_entrants, put_settings, room_snapshot, run_draw

    a, b = nodes
    key = http.created_room(a, "own-list")["hostKey"]
    assert put_entrants(a, "own-list", key, "Ann\nBob\nCy\nDee").status == 200
    assert put_settings(a, "own-list", key, {"winners": 2, "rounds": 3}).status == 200
    snap = room_snapshot(b, "own-list")
    assert snap["entrants"] == 4 and snap["settings"]["winners"] == 2, snap
    record = run_draw(b, "own-list", key)
    assert record["status"] == "finished", record
    assert [p["name"] for p in record["entrants"]] == ["Ann", "Bob", "Cy", "Dee"]
    assert record["winners"] == 2 and len({p["index"] for p in record["winnerPicks"]}) == 2
    # Replaced through B between draws: A's next draw uses the new list.
    assert put_entrants(b, "own-list", key, "Eve\nFay").status == 200
    assert [p["name"] for p in run_draw(a, "own-list", key)["entrants"]] == ["Eve", "Fay"]


def test_a_list_changed_through_one_node_reaches_viewers_on_another(nodes, redis):
    """Issue 15: the `room` message goes over the room's channel, so viewers connected to B see
    a list uploaded through A (count and settings) without reconnecting."""
    from helpers.rooms import put_entrants, put_settings

    a, b = nodes
    key = http.created_room(a, "live-list")["hostKey"]

    async def scenario():
        viewer = await WSClient.open(b.ws_url("live-list"), name="on-b")
        try:
            await viewer.expect("snapshot")
            await asyncio.to_thread(wait_until, lambda: numsub(redis, "live-list") >= 1, 10, "B subscribed")
            assert put_entrants(a, "live-list", key, "Ann\nBob\nCy").status == 200
            room, _ = await viewer.wait_for(lambda m: m.type == "room", 10)
            assert room["entrants"] == 3, room.raw
            assert put_settings(a, "live-list", key, {"winners": 2}).status == 200
            room, _ = await viewer.wait_for(lambda m: m.type == "room", 10)
            assert room["settings"]["winners"] == 2 and room["entrants"] == 3, room.raw
        finally:
            await viewer.close()

    run(scenario(), timeout=30)
