"""Over wss, a viewer that stops reading for a while, then reads again, gets every message whole
and in order.

Why: under TLS the server frames each message and encrypts it with one SSL_write itself
(Sources/CLwsShim/ldlws_ws.c, tls_write, issue 29); when the socket is full OpenSSL keeps the
record it made and must be called again with the same bytes, which the server leaves to
libwebsockets (it is handed the frame, retries it, and keeps what is not taken). The draw below
sends messages under lws' 64 KiB send cut (so they take that path, not lws_write) and more of
them than the server's socket buffer holds for a peer with a tiny receive window, read from the
kernel (`ss`) after the draw, so some writes must go short. A record lost, repeated, reordered
or cut at that seam would show as a TLS error, a frame that does not parse, or a message that
differs from a reading viewer's copy.
"""
import asyncio
import json
import re
import ssl
import subprocess

import pytest

from helpers import rawws
from helpers.certs import ThrowawayCA
from helpers.datasource import LOTTERY, USERS
from helpers.seed import big_lists
from helpers.wsclient import WSClient, close_all, run

ENTRANTS = 140
NAME_LEN = 300   # ~375 bytes per entrant: `started` and `finished` are ~58 KB each (v1), under 64 KiB
# On loopback the kernel lets a socket's send buffer grow to tcp_wmem's maximum (4 MiB here)
# even towards a peer that reads nothing: the draws must send more than that.
DRAWS = 40
RCVBUF = 4096


def _server_sndbuf(server_port: int, client_port: int) -> int:
    """The kernel's send buffer (skmem tb) of the server's end of one connection, in bytes."""
    out = subprocess.run(["ss", "-tmnH", "state", "established", f"( sport = :{server_port} and dport = :{client_port} )"],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"\btb(\d+)", out)
    assert m, f"no skmem in ss output: {out!r}"
    return int(m.group(1))


def test_paused_wss_reader_gets_every_message_whole_and_in_order(launch, data_source, tmp_path):
    if subprocess.run(["which", "ss"], capture_output=True).returncode != 0:
        pytest.skip("needs ss (iproute2) to read the server's send buffer")
    issued = ThrowawayCA(tmp_path / "ca").issue("server")
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    users, lottery = big_lists(ENTRANTS, NAME_LEN)
    data_source.set_json(USERS, users)
    data_source.set_json(LOTTERY, lottery)
    # Room for the paused viewer's backlog (13 messages a draw), so it is never dropped.
    server = launch(tls_cert=str(issued.cert), tls_key=str(issued.key), outbound_queue=1024, round_interval_ms=20)

    async def scenario():
        reading = await WSClient.open(server.ws_url("lobby"), name="reading", ssl=context)   # v1, as the raw one
        await reading.expect("snapshot")
        paused, reader = await asyncio.to_thread(rawws.open_joined, server.host, server.port, "lobby",
                                                 rcvbuf=RCVBUF, tls=context)
        try:
            await reading.wait_viewers(2, timeout=5)
            before = len(reader.messages)
            # From here on the raw viewer reads nothing until every draw is over.
            expected = []
            for _ in range(DRAWS):
                await reading.send_json({"type": "start", "hostKey": server.lobby_key})
                draw = await reading.collect_draw(timeout=20)
                assert [m.type for m in draw][-1] == "finished", [m.type for m in draw]
                expected += [m.raw.encode() for m in draw]
            sndbuf = _server_sndbuf(server.port, paused.getsockname()[1])

            def done(r):
                texts = [m for op, m in r.messages[before:] if op == 0x1]
                return sum(1 for m in texts if b'"type":"finished"' in m) == DRAWS

            got = await asyncio.to_thread(rawws.read_until, paused, reader, done, 30.0)
            assert got == "ok", f"the paused viewer's connection ended ({got}) before the last draw's end arrived"
            return expected, sndbuf, reader.messages[before:]
        finally:
            paused.close()
            await close_all([reading])

    expected, sndbuf, messages = run(scenario(), timeout=180)
    texts = [m for op, m in messages if op == 0x1]
    draw_only = [m for m in texts if json.loads(m)["type"] != "presence"]
    assert [json.loads(m)["type"] for m in draw_only] == [json.loads(m)["type"] for m in expected]
    for i, (a, b) in enumerate(zip(draw_only, expected)):
        assert a == b, f"message {i} ({json.loads(b)['type']}, {len(b)} bytes) differs for the paused viewer"
    assert max(len(m) for m in expected) + 14 <= 64 * 1024, "a message past lws' send cut goes through lws_write"
    total = sum(len(m) for m in draw_only)
    assert total > sndbuf + 2 * RCVBUF, \
        f"the draws sent only {total} bytes, the socket holds {sndbuf}: no write went short, this test proves nothing"
