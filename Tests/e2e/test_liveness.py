"""Liveness, both ways (issue 13): the server pings idle WebSockets and drops the peers that stop
answering (`--idle-ping-seconds`, `--idle-timeout-seconds`), and a quiet room sends `heartbeat`
messages (`--heartbeat-seconds`) so that a page, which cannot see pings, hears something.

With short intervals: a peer that never answers is closed within the timeout (plus lws' tick and
a margin); one that answers (the `websockets` library pongs by itself) stays through several
timeouts; a peer behind a proxy that silently drops the line (no FIN, no RST) is let go too.
"""
import asyncio
import time

from helpers import rawws
from helpers.proxy import SilentDropProxy
from helpers.wsclient import WSClient, run

PING_S = 1
TIMEOUT_S = 3
HEARTBEAT_S = 1
# The server sweeps for silent clients every 200 ms (IdleTracker); a loaded debug build may be late.
MARGIN_S = 3.0


def _short(launch, **opts):
    return launch(idle_ping_seconds=PING_S, idle_timeout_seconds=TIMEOUT_S, heartbeat_seconds=HEARTBEAT_S, **opts)


def test_a_peer_that_never_answers_pings_is_dropped_within_the_timeout(launch):
    server = _short(launch)
    sock, reader = rawws.open_joined(server.host, server.port)
    joined = time.monotonic()
    how = rawws.drain(sock, reader, timeout=TIMEOUT_S + MARGIN_S + 5)
    gone_after = time.monotonic() - joined
    assert how in ("eof", "reset", "close"), f"still open after {gone_after:.1f}s ({how})"
    assert reader.pings, "the server never pinged the idle peer"
    # Not before it had the timeout to answer (less lws' one-second tick), and not much after.
    assert TIMEOUT_S - 1.2 <= gone_after <= TIMEOUT_S + MARGIN_S, f"dropped after {gone_after:.1f}s"
    sock.close()


def test_a_peer_that_answers_pings_stays_and_hears_heartbeats(launch):
    server = _short(launch)

    async def scenario():
        client = await WSClient.open(server.ws_url("lobby"), "ponging")
        client.keep_heartbeats = True
        await client.expect("snapshot")
        end = time.monotonic() + 3 * TIMEOUT_S + 1
        beats = []
        while time.monotonic() < end:
            msg = await client.next(timeout=HEARTBEAT_S + 2.5)  # never more than a beat + tick apart
            if msg.type == "heartbeat":
                beats.append(msg)
        assert client.closed is None
        # The library answered the server's pings meanwhile, and the room was quiet throughout.
        assert len(beats) >= 3 * TIMEOUT_S // (HEARTBEAT_S + 1)
        assert all(b["intervalMs"] == HEARTBEAT_S * 1000 and isinstance(b["serverTime"], float) for b in beats)
        # Still fully usable: a draw runs to its end.
        await client.send_json({"type": "start", "hostKey": server.lobby_key})
        client.keep_heartbeats = False
        finished, _ = await client.wait_for(lambda m: m.type == "finished", timeout=10)
        assert finished["drawId"]
        await client.close()

    run(scenario())


def test_no_heartbeat_while_a_draw_keeps_the_room_talking(launch):
    # Rounds 300 ms apart for 6 s: the room is never quiet for a heartbeat's second.
    server = _short(launch, round_interval_ms=300, rounds=20)

    async def scenario():
        client = await WSClient.open(server.ws_url("lobby"), "watcher")
        await client.expect("snapshot")
        await client.send_json({"type": "start", "hostKey": server.lobby_key})
        await client.wait_for(lambda m: m.type == "started", timeout=10)
        heard_before = len(client.heartbeats)
        await client.wait_for(lambda m: m.type == "finished", timeout=20)
        assert len(client.heartbeats) == heard_before
        await client.close()

    run(scenario())


def test_a_peer_behind_a_silently_dropped_line_is_let_go(launch):
    server = _short(launch)

    async def scenario():
        with SilentDropProxy(server.host, server.port) as proxy:
            observer = await WSClient.open(server.ws_url("lobby"), "observer")
            await observer.expect("snapshot")
            cut_off = await WSClient.open(f"ws://127.0.0.1:{proxy.port}/ws/lobby", "behind-proxy", close_timeout=0.5)
            await cut_off.expect("snapshot")
            await observer.wait_viewers(2)
            proxy.freeze()
            frozen_at = time.monotonic()
            # The proxy holds the server's pings: no pong can come back, so the server drops it.
            await observer.wait_viewers(1, timeout=TIMEOUT_S + MARGIN_S)
            assert time.monotonic() - frozen_at >= PING_S
            await observer.close()
            # The cut-off client never learns of it while the line is frozen; drop it quietly.
            cut_off.ws.transport.abort()

    run(scenario())
