"""Durable rooms (issue 13): rooms created over the API live in the data directory, so a restart
(SIGTERM or kill -9) on the same data dir keeps them, their keys and their last result; a host can
delete a room or rotate its key; rooms unused past the expiry time are deleted.

Real processes on real SQLite files: every restart is a new process on the same data dir and port.
docs/PROTOCOL.md section 5, docs/STORAGE.md ("Rooms").
"""
import asyncio
import contextlib
import hashlib
import signal
import time
from pathlib import Path

from helpers import http
from helpers.wsclient import WSClient, close_all, run


def _data_dir(srv) -> Path:
    return Path(srv._own_data_dir)


def _restart(srv, sig=signal.SIGTERM):
    srv.stop(sig=sig)
    return srv.restart()


@contextlib.asynccontextmanager
async def _viewer(srv, room: str):
    """A viewer of `room`, past its snapshot; closed on the way out."""
    viewer = await WSClient.open(srv.ws_url(room), name="viewer")
    try:
        await viewer.expect("snapshot")
        yield viewer
    finally:
        await viewer.close()


def _watch_draw(srv, room: str, key: str) -> list:
    """Starts a draw in `room` with `key` while a viewer watches; the viewer's messages to the end."""
    async def scenario():
        async with _viewer(srv, room) as viewer:
            resp = await asyncio.to_thread(http.start_draw, srv, room, key)
            assert resp.status == 202, resp.body
            return await viewer.collect_draw(timeout=20)

    return run(scenario(), timeout=30)


def _snapshot(srv, room: str):
    async def scenario():
        c = await WSClient.open(srv.ws_url(room), name="joiner")
        try:
            return (await c.expect("snapshot")).data
        finally:
            await c.close()

    return run(scenario(), timeout=15)


def _expect_unknown_over_ws(srv, room: str, code: str = "unknown_room"):
    async def scenario():
        c = await WSClient.open(srv.ws_url(room))
        closed, before = await c.expect_close(timeout=5)
        assert [m.type for m in before] == ["error"] and before[0]["code"] == code, [m.raw for m in before]
        assert closed.code == 4404, closed

    run(scenario(), timeout=15)


def test_rooms_keys_and_last_result_survive_a_restart(launch):
    srv = launch()
    a = http.created_room(srv, "durable-a")
    b = http.created_room(srv, "durable-b")
    finished = _watch_draw(srv, "durable-a", a["hostKey"])[-1]
    assert finished.type == "finished", finished.raw

    _restart(srv)

    # The room loads from the store on the first join, with its last result.
    snap = _snapshot(srv, "durable-a")
    assert snap["room"] == "durable-a"
    assert snap["lastResult"] is not None and snap["lastResult"]["drawId"] == finished["drawId"]
    assert snap["lastResult"]["seed"] == finished["seed"]
    assert snap["lastResult"]["winner"] == finished["winner"]
    # Over HTTP too, for a room nobody has joined since the restart.
    status, body = http.api(srv, "GET", "/api/rooms/durable-b")
    assert status == 200 and body["room"] == "durable-b" and body["lastResult"] is None, body
    # The same keys start draws; a wrong one does not.
    assert http.start_draw(srv, "durable-b", a["hostKey"]).status == 403
    assert _watch_draw(srv, "durable-b", b["hostKey"])[-1].type == "finished"
    assert _watch_draw(srv, "durable-a", a["hostKey"])[-1].type == "finished"


def test_a_name_stays_taken_across_a_restart(launch):
    srv = launch()
    http.created_room(srv, "taken")
    _restart(srv)
    # A kept room not loaded since the restart has a history, empty as it is.
    status, body = http.api(srv, "GET", "/api/rooms/taken/draws")
    assert status == 200 and body["draws"] == [], body
    resp = http.create_room(srv, "taken")
    assert resp.status == 409 and resp.error_code() == "room_exists", resp.body


def test_delete_needs_the_key_tells_viewers_and_frees_the_name(launch):
    srv = launch()
    room = http.created_room(srv, "doomed")
    key = room["hostKey"]
    assert http.api(srv, "DELETE", "/api/rooms/doomed")[0] == 401
    assert http.api(srv, "DELETE", "/api/rooms/doomed", key="0" * 48)[0] == 403
    status, body = http.api(srv, "DELETE", "/api/rooms/lobby", key=srv.lobby_key)
    assert status == 403 and body["error"]["code"] == "forbidden", body

    async def scenario():
        async with _viewer(srv, "doomed") as viewer:
            resp = await asyncio.to_thread(http.request, srv, "DELETE", "/api/rooms/doomed",
                                           headers={"Authorization": f"Bearer {key}"})
            assert resp.status == 204 and resp.body == b"", (resp.status, resp.body)
            closed, before = await viewer.expect_close(timeout=5)
            assert [m.type for m in before] == ["error"] and before[0]["code"] == "room_deleted", \
                [m.raw for m in before]
            assert closed.code == 4404, closed

    run(scenario(), timeout=20)
    status, body = http.api(srv, "GET", "/api/rooms/doomed")
    assert status == 404 and body["error"]["code"] == "unknown_room"
    assert http.start_draw(srv, "doomed", key).status == 404
    _expect_unknown_over_ws(srv, "doomed")

    _restart(srv)
    assert http.api(srv, "GET", "/api/rooms/doomed")[0] == 404
    _expect_unknown_over_ws(srv, "doomed")
    # The name is free again; the old key means nothing in the new room.
    again = http.created_room(srv, "doomed")
    assert again["hostKey"] != key
    assert http.start_draw(srv, "doomed", key).status == 403


def test_delete_is_refused_while_a_draw_runs(launch):
    srv = launch(round_interval_ms=300)
    room = http.created_room(srv, "busy-room")
    assert http.start_draw(srv, "busy-room", room["hostKey"]).status == 202
    status, body = http.api(srv, "DELETE", "/api/rooms/busy-room", key=room["hostKey"])
    assert status == 409 and body["error"]["code"] == "draw_running", body


def test_rotating_the_key_retires_the_old_one_also_after_a_restart(launch):
    srv = launch()
    old = http.created_room(srv, "rotating")["hostKey"]
    assert http.api(srv, "POST", "/api/rooms/rotating/key")[0] == 401
    assert http.api(srv, "POST", "/api/rooms/rotating/key", key="f" * 48)[0] == 403
    resp = http.request(srv, "POST", "/api/rooms/rotating/key", may_carry_key=True,
                        headers={"Content-Type": "application/json", "Authorization": f"Bearer {old}"})
    assert resp.status == 200, resp.body
    body = resp.json
    new = body["hostKey"]
    assert body["room"] == "rotating" and new != old and len(new) == 48
    assert body["hostUrl"] == f"/?room=rotating#key={new}"
    assert http.start_draw(srv, "rotating", old).status == 403
    _restart(srv)
    assert http.start_draw(srv, "rotating", old).status == 403
    assert _watch_draw(srv, "rotating", new)[-1].type == "finished"


def test_the_database_keeps_the_key_hash_not_the_key(launch):
    srv = launch()
    key = http.created_room(srv, "hashed")["hostKey"]
    rotated = http.request(srv, "POST", "/api/rooms/hashed/key", may_carry_key=True,
                           headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"}).json["hostKey"]
    srv.stop()
    blobs = b"".join(p.read_bytes() for p in _data_dir(srv).iterdir() if p.is_file())
    for k in (key, rotated):
        assert k.encode() not in blobs, "a host key is stored in the data directory"
    assert hashlib.sha256(rotated.encode()).hexdigest().encode() in blobs, "the key's hash is not stored"
    assert srv.lobby_key is not None


def test_rooms_unused_past_the_expiry_are_deleted_but_not_while_watched(launch):
    srv = launch(room_expiry_seconds=2)
    old = http.created_room(srv, "stale")
    watched = http.created_room(srv, "watched")
    finished = _watch_draw(srv, "stale", old["hostKey"])[-1]

    async def scenario():
        async with _viewer(srv, "watched") as viewer:
            deadline = time.monotonic() + 15
            while (await asyncio.to_thread(http.api, srv, "GET", "/api/rooms/stale"))[0] != 404:
                assert time.monotonic() < deadline, "the stale room never expired"
                await asyncio.sleep(0.2)  # polling an observable condition, with a deadline
            # Well past the expiry: the watched room is still there, its viewer still connected.
            await asyncio.sleep(3)
            await viewer.barrier()
            assert (await asyncio.to_thread(http.api, srv, "GET", "/api/rooms/watched"))[0] == 200

    run(scenario(), timeout=40)
    _expect_unknown_over_ws(srv, "stale")
    assert http.start_draw(srv, "stale", old["hostKey"]).status == 404
    # Its history stays.
    status, body = http.api(srv, "GET", "/api/rooms/stale/draws")
    assert status == 200 and body["draws"][0]["drawId"] == finished["drawId"], body
    assert watched["room"] == "watched"


def test_concurrent_joins_of_an_unloaded_room_all_get_the_snapshot(launch):
    srv = launch()
    http.created_room(srv, "crowd")
    _restart(srv)

    async def scenario():
        clients = await asyncio.gather(*(WSClient.open(srv.ws_url("crowd"), name=f"c{i}") for i in range(30)))
        try:
            snaps = await asyncio.gather(*(c.expect("snapshot", timeout=10) for c in clients))
            assert all(s["room"] == "crowd" for s in snaps)
            await clients[0].wait_viewers(30, timeout=10)
        finally:
            await close_all(clients)

    run(scenario(), timeout=30)


def test_kill_9_while_idle_keeps_rooms_and_keys(launch):
    srv = launch()
    rooms = [http.created_room(srv, f"crash-{i}") for i in range(3)]
    _restart(srv, sig=signal.SIGKILL)
    for r in rooms:
        assert http.start_draw(srv, r["room"], "0" * 48).status == 403
    assert _watch_draw(srv, rooms[1]["room"], rooms[1]["hostKey"])[-1].type == "finished"


def test_kill_9_while_drawing_keeps_the_room_key_and_history(launch):
    srv = launch(round_interval_ms=300, loading_notice_ms=None)
    room = http.created_room(srv, "crash-draw")
    done = _watch_draw(srv, "crash-draw", room["hostKey"])[-1]

    async def until_round_2():
        async with _viewer(srv, "crash-draw") as viewer:
            assert (await asyncio.to_thread(http.start_draw, srv, "crash-draw", room["hostKey"])).status == 202
            started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=10)
            await viewer.wait_for(lambda m: m.type == "round" and m["round"] == 2, timeout=10)
            srv.kill()
            return started["drawId"]

    interrupted = run(until_round_2(), timeout=30)
    srv.restart()
    status, body = http.api(srv, "GET", "/api/rooms/crash-draw/draws")
    assert status == 200, body
    assert [(d["drawId"], d["status"]) for d in body["draws"][:2]] == [(interrupted, "interrupted"), (done["drawId"], "finished")]
    # The snapshot shows the last finished draw, not the interrupted one.
    assert _snapshot(srv, "crash-draw")["lastResult"]["drawId"] == done["drawId"]
    assert _watch_draw(srv, "crash-draw", room["hostKey"])[-1].type == "finished"
