"""Only the host starts draws, and only one at a time (PROTOCOL.md sections 2 `error`, 3 and 5)."""
import asyncio
import threading

import pytest

from helpers import draw, http
from helpers.datasource import USERS
from helpers.wsclient import WSClient, close_all, run


def test_viewer_start_without_or_with_wrong_key_is_refused(server):
    """No key -> unauthorized; wrong key (or another room's key) -> forbidden; nothing starts."""
    other = http.create_room(server, "other-room")
    assert other.status == 201

    async def scenario():
        viewer = await WSClient.open(server.ws_url("lobby"), name="viewer")
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        try:
            await viewer.expect("snapshot")
            await watcher.expect("snapshot")
            attempts = [
                ({"type": "start"}, "unauthorized"),
                ({"type": "start", "hostKey": "0" * 48}, "forbidden"),
                ({"type": "start", "hostKey": server.lobby_key[:-1] + ("0" if server.lobby_key[-1] != "0" else "1")},
                 "forbidden"),
                ({"type": "start", "hostKey": other.json["hostKey"]}, "forbidden"),
            ]
            for message, code in attempts:
                await viewer.send_json(message)
                err = await viewer.expect("error", timeout=5)
                assert err["code"] == code, f"{message} -> {err.raw}"
                assert isinstance(err["message"], str) and err["message"]
                # Barrier on the same connection: had the start been accepted, its `loading`
                # broadcast would be queued for this viewer before the pong.
                before_pong = await viewer.barrier()
                assert not before_pong, f"after a refused start: {[m.raw[:120] for m in before_pong]}"
            assert not await watcher.barrier(), "the watcher saw something although no draw may start"
        finally:
            await close_all([viewer, watcher])

    run(scenario(), timeout=30)
    state = http.request(server, "GET", "/api/rooms/lobby")
    assert state.status == 200 and state.json["draw"] is None and state.json["lastResult"] is None


@pytest.mark.parametrize("first,second", [("http", "http"), ("http", "ws"), ("ws", "ws")])
def test_concurrent_starts_give_exactly_one_draw(server, data_source, first, second):
    """Two starts at the same moment: one is accepted, the other gets draw_running / 409."""
    # A held users list keeps the room in `loading` until both starts have been answered.
    data_source.hold(USERS)

    async def scenario():
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        hosts = {}
        try:
            await watcher.expect("snapshot")
            for i, how in enumerate((first, second)):
                if how == "ws":
                    hosts[i] = await WSClient.open(server.ws_url("lobby"), name=f"host{i}")
                    await hosts[i].expect("snapshot")
            gate = threading.Barrier(2, timeout=5)
            loop = asyncio.get_running_loop()

            def http_start():
                gate.wait()
                return http.start_draw(server, "lobby", server.lobby_key)

            async def ws_start(i):
                await asyncio.to_thread(gate.wait)
                await hosts[i].send_json({"type": "start", "hostKey": server.lobby_key})
                before = await hosts[i].barrier()
                errors = [m for m in before if m.type == "error"]
                assert len(errors) <= 1, [m.raw for m in errors]
                if errors:
                    assert errors[0]["code"] == "draw_running", errors[0].raw
                return "refused" if errors else "accepted"

            async def one(i, how):
                if how == "http":
                    resp = await loop.run_in_executor(None, http_start)
                    if resp.status == 409:
                        assert resp.error_code() == "draw_running"
                        return "refused"
                    assert resp.status == 202, (resp.status, resp.body)
                    return "accepted"
                return await ws_start(i)

            outcomes = await asyncio.gather(one(0, first), one(1, second))
            assert sorted(outcomes) == ["accepted", "refused"], outcomes
            data_source.release()
            seq = await watcher.collect_draw(timeout=10)
            extra = await watcher.barrier()
        finally:
            data_source.release()
            await close_all([watcher] + list(hosts.values()))
        assert [m.type for m in seq] == ["loading", "started"] + ["round"] * 10 + ["finished"], [m.type for m in seq]
        assert not extra, f"more after the one draw: {[m.raw[:120] for m in extra]}"
        draw.assert_verifies(seq[-1].data, seq[1].data, [m.data for m in seq[2:12]])

    run(scenario(), timeout=30)
