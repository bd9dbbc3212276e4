"""wss: the server reads TLS WebSocket input itself too, so the frame rules hold there as well.

The server decrypts each wss connection's input through the connection's own TLS session
(SSL_read on lws' session, Sources/CLwsShim) and parses it like plain input. A self-signed
certificate made with the openssl CLI; the clients trust exactly that certificate.
"""
import asyncio
import http.client
import json
import ssl
import subprocess

import pytest

from helpers import draw, rawws
from helpers.rawws import close_payload, encode_frame
from helpers.wsclient import WSClient, close_all, run


@pytest.fixture
def tls_server(launch, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    server = launch(tls_cert=str(cert), tls_key=str(key))
    context = ssl.create_default_context(cafile=str(cert))
    return server, context


def _wss_url(server, room: str) -> str:
    return f"wss://{server.host}:{server.port}/ws/{room}"


def test_a_full_draw_over_wss(tls_server):
    server, context = tls_server

    async def scenario():
        viewer = await WSClient.open(_wss_url(server, "lobby"), name="viewer", ssl=context)
        host = await WSClient.open(_wss_url(server, "lobby"), name="host", ssl=context)
        try:
            await viewer.expect("snapshot")
            await host.expect("snapshot")
            assert not await viewer.barrier(), "ping/pong over wss"
            await host.send_json({"type": "start", "hostKey": server.lobby_key})
            seq = await viewer.collect_draw(timeout=15)
            assert [m.type for m in seq] == ["loading", "started"] + ["round"] * 10 + ["finished"], \
                [m.raw[:80] for m in seq]
            draw.assert_verifies(seq[-1].data, seq[1].data, [m.data for m in seq[2:12]])
        finally:
            await close_all([viewer, host])

    run(scenario(), timeout=60)


def test_frame_rules_hold_over_wss(tls_server):
    server, context = tls_server
    cases = [
        (encode_frame(0x9, b"hello", masked=False), 1002),                 # unmasked
        (encode_frame(0x8, close_payload(5000)), 1002),                    # refused close code
        (encode_frame(0x9, b"p" * 200), 1002),                             # oversized ping
        (encode_frame(0x1, b"a", fin=False) + encode_frame(0x0, b"", claimed_length=2**63 - 1), 1009),
        (encode_frame(0x8, close_payload(4000)), 4000),                    # a valid close is echoed
    ]
    for data, expected in cases:
        sock, reader = rawws.open_joined(server.host, server.port, tls=context)
        try:
            sock.sendall(data)
            assert rawws.read_until(sock, reader, lambda r: r.close, timeout=5) == "ok", data[:16]
            assert reader.close[0] == expected, (data[:16], reader.close)
            if expected != 4000:
                sock.sendall(encode_frame(0x8, close_payload(1000)))
            assert rawws.wait_closed(sock, timeout=5) is not None, "no close after the handshake"
        finally:
            sock.close()


def test_many_messages_in_one_tls_read(tls_server):
    """TLS hands over whole records: many frames in one, split frames across two."""
    server, context = tls_server
    sock, reader = rawws.open_joined(server.host, server.port, tls=context)
    try:
        pings = b"".join(encode_frame(0x1, json.dumps({"type": "ping", "id": i}).encode()) for i in range(30))
        sock.sendall(pings[:7])
        sock.sendall(pings[7:])
        pongs = lambda r: sum(1 for m in r.messages if b'"pong"' in m[1]) == 30  # noqa: E731
        assert rawws.read_until(sock, reader, pongs, timeout=10) == "ok"
    finally:
        sock.close()


def test_https_page_and_api_through_the_front_door(tls_server):
    # With TLS the front door hands each connection to lws at once, unread (PROTOCOL.md 5.4):
    # plain HTTPS requests must still be served.
    server, context = tls_server
    for path, marker in [("/healthz", b'{"status":"ok"}'), ("/", b"INDEX-MARKER")]:
        conn = http.client.HTTPSConnection(server.host, server.port, timeout=5, context=context)
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        assert resp.status == 200 and marker in body, (path, resp.status, body[:200])
