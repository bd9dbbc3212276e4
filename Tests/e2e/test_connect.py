"""Connecting: subprotocol or not, unknown rooms, ping/pong (PROTOCOL.md sections 1, 2 `pong`, 3)."""
import asyncio

import pytest
from websockets.exceptions import InvalidStatus

from helpers import http
from helpers.protocol import SUBPROTOCOL, SUBPROTOCOL_V1
from helpers.wsclient import WSClient, close_all, now_ms, run


@pytest.mark.parametrize("subprotocols,version", [((SUBPROTOCOL,), 2), ((SUBPROTOCOL_V1,), 1), (None, 1),
                                                  ((SUBPROTOCOL_V1, SUBPROTOCOL), 1), ((SUBPROTOCOL, SUBPROTOCOL_V1), 2)],
                         ids=["v2", "v1", "without", "v1-first", "v2-first"])
def test_connect_with_and_without_subprotocol(server, subprotocols, version):
    """The first subprotocol offered that the server knows is the version spoken; none is v1."""
    async def scenario():
        c = await WSClient.open(server.ws_url("lobby"), subprotocols=subprotocols)
        try:
            assert c.ws.subprotocol == (subprotocols[0] if subprotocols else None)
            snap = await c.next(5)
            assert snap.type == "snapshot" and snap["protocol"] == version and snap["room"] == "lobby"
            assert snap["viewers"] == 1 and snap["draw"] is None and snap["lastResult"] is None
            assert abs(snap["serverTime"] - now_ms()) < 5000, "serverTime is not epoch milliseconds"
            assert not await c.barrier()
        finally:
            await c.close()

    run(scenario(), timeout=20)


def test_ping_pong_echoes_id(server):
    async def scenario():
        c = await WSClient.open(server.ws_url("lobby"))
        try:
            await c.expect("snapshot")
            for pid in (7, 0, -3, "abc", "x" * 64):
                await c.send_json({"type": "ping", "id": pid})
                pong = await c.expect("pong")
                assert pong.get("id") == pid and type(pong["id"]) is type(pid), pong.raw
                assert abs(pong["serverTime"] - now_ms()) < 5000
            t_before = now_ms()
            await c.send_json({"type": "ping"})
            pong = await c.expect("pong")
            assert "id" not in pong.data, f"a ping without id got {pong.raw}"
            assert t_before - 50 <= pong["serverTime"] <= now_ms() + 50
        finally:
            await c.close()

    run(scenario(), timeout=20)


@pytest.mark.parametrize("room", ["no-such-room", "UPPER", "a" * 65, "bad_name"])
def test_unknown_or_malformed_room_gets_error_then_4404(shared_server, room):
    async def scenario():
        try:
            c = await WSClient.open(shared_server.ws_url(room))
        except InvalidStatus as e:
            raise AssertionError(f"room {room!r}: refused at the HTTP level ({e.response.status_code}); "
                                 "the contract says accept, send error unknown_room, close 4404") from None
        closed, before = await c.expect_close(timeout=5)
        assert [m.type for m in before] == ["error"], [m.raw for m in before]
        assert before[0]["code"] == "unknown_room", before[0].raw
        assert closed.code == 4404, f"closed with {closed}"

    run(scenario(), timeout=20)


def test_created_room_is_joinable(server):
    room = http.create_room(server, "fresh").json["room"]

    async def scenario():
        c = await WSClient.open(server.ws_url(room))
        try:
            snap = await c.next(5)
            assert snap.type == "snapshot" and snap["room"] == room and snap["draw"] is None
        finally:
            await c.close()

    run(scenario(), timeout=20)


def test_allowed_origins_refuse_other_browsers_before_the_upgrade(launch):
    """--allowed-origins: another origin gets HTTP 403 before the upgrade; no Origin is a script."""
    server = launch(allowed_origins="http://good.example")

    async def scenario():
        try:
            await WSClient.open(server.ws_url("lobby"), origin="http://evil.example")
        except InvalidStatus as e:
            assert e.response.status_code == 403, e.response.status_code
        else:
            raise AssertionError("a WebSocket from a non-allowed origin was accepted")
        for origin in ("http://good.example", None):
            c = await WSClient.open(server.ws_url("lobby"), origin=origin)
            try:
                assert (await c.next(5)).type == "snapshot"
            finally:
                await c.close()

    run(scenario(), timeout=20)


def test_connection_limit_refuses_with_503_then_recovers(launch):
    """ServerConfig.maxConnections: beyond it new connections get 503; a freed slot is reusable."""
    limit = 4
    server = launch(max_connections=limit)

    async def scenario():
        clients = [await WSClient.open(server.ws_url("lobby"), name=f"c{i}") for i in range(limit)]
        try:
            for c in clients:
                assert (await c.next(5)).type == "snapshot"
            try:
                extra = await WSClient.open(server.ws_url("lobby"), name="extra")
            except InvalidStatus as e:
                assert e.response.status_code == 503, e.response.status_code
            else:
                await extra.close()
                raise AssertionError(f"connection {limit + 1} was accepted with --max-connections {limit}")
            await clients.pop().close()
            # The slot frees once the server has seen the close; poll (bounded) for it.
            for attempt in range(50):
                try:
                    again = await WSClient.open(server.ws_url("lobby"), name="again")
                    break
                except InvalidStatus:
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("no connection accepted after one was closed")
            clients.append(again)
            assert (await again.next(5)).type == "snapshot"
        finally:
            await close_all(clients)

    run(scenario(), timeout=20)
