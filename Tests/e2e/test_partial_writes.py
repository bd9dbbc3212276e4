"""A viewer that stops reading for a while, then reads again, gets every message whole and in order.

Why: on a plain socket the server frames each message and sends it itself (Sources/CLwsShim/
ldlws_ws.c, ldlws_write_text); what the socket does not take is handed to libwebsockets, which
sends it before anything else. The draw below sends more than the kernel can hold for a peer
that does not read (the server's largest send buffer plus the peer's tiny receive buffer), so
some of its sends are necessarily short and the rest goes the long way. A byte lost, repeated or
reordered at that seam would show as a frame that does not parse, a message that differs from a
reading viewer's copy, or a message out of order.
"""
import asyncio
import json
from pathlib import Path

from helpers import http, rawws
from helpers.datasource import LOTTERY, USERS
from helpers.seed import big_lists
from helpers.wsclient import WSClient, close_all, run

ENTRANTS = 6000
NAME_LEN = 300          # ~375 bytes per entrant: `started` and `finished` are ~2.2 MB each (v1)
RCVBUF = 4096


def _most_the_kernel_holds() -> int:
    """Bytes a connection can have in flight towards a peer that does not read: the server's
    largest send buffer plus what the peer's receive buffer takes (the kernel doubles it)."""
    wmem_max = int(Path("/proc/sys/net/ipv4/tcp_wmem").read_text().split()[2])
    return wmem_max + 2 * RCVBUF


def test_paused_reader_gets_every_message_whole_and_in_order(launch, data_source):
    users, lottery = big_lists(ENTRANTS, NAME_LEN)
    data_source.set_json(USERS, users)
    data_source.set_json(LOTTERY, lottery)
    # Room for the paused viewer's backlog (one draw is 13 messages), so it is never dropped.
    server = launch(outbound_queue=64, fetch_max_bytes=64 * 1024 * 1024, fetch_timeout_ms=20000,
                    round_interval_ms=100)

    async def scenario():
        reading = await WSClient.open(server.ws_url("lobby"), name="reading")   # v1, as the raw one
        await reading.expect("snapshot")
        paused, reader = await asyncio.to_thread(rawws.open_joined, server.host, server.port, "lobby",
                                                 rcvbuf=RCVBUF)
        try:
            await reading.wait_viewers(2, timeout=5)
            before = len(reader.messages)
            # From here on the raw viewer reads nothing until the draw is over.
            resp = await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            draw = await reading.collect_draw(timeout=40)
            assert [m.type for m in draw][-1] == "finished", [m.type for m in draw]
            # Now it reads again: everything the reading viewer got (collect_draw leaves presence
            # updates out, which each viewer gets at its own moments), in the same order.
            expected = [m.raw.encode() for m in draw]

            def done(r):
                texts = [m for op, m in r.messages[before:] if op == 0x1]
                return any(b'"type":"finished"' in m for m in texts)

            got = await asyncio.to_thread(rawws.read_until, paused, reader, done, 30.0)
            assert got == "ok", f"the paused viewer's connection ended ({got}) before the draw's end arrived"
        finally:
            paused.close()
            await close_all([reading])

        texts = [m for op, m in reader.messages[before:] if op == 0x1]
        draw_only = [m for m in texts if json.loads(m)["type"] != "presence"]
        assert [json.loads(m)["type"] for m in draw_only] == [json.loads(m)["type"] for m in expected]
        for i, (a, b) in enumerate(zip(draw_only, expected)):
            assert a == b, f"message {i} ({json.loads(b)['type']}, {len(b)} bytes) differs for the paused viewer"
        total = sum(len(m) for m in draw_only)
        assert total > _most_the_kernel_holds(), \
            f"the draw sent only {total} bytes: not enough to make any send short, so this test proves nothing"

    run(scenario(), timeout=90)
