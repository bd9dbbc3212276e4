"""TLS end to end: https and wss with a client that verifies the certificate, as a deployment's
clients do; and the server reads TLS WebSocket input itself too, so the frame rules hold there.

A throwaway CA and the server's certificates are made with the openssl CLI at test time
(helpers/certs.py); the clients trust that CA (not the certificate itself) and check the host
name, so a certificate for another host or an expired one is refused. The server decrypts each
wss connection's input through the connection's own TLS session (SSL_read on lws' session,
Sources/CLwsShim) and parses it like plain input.
"""
import asyncio
import http.client
import json
import os
import socket
import ssl
import time

import pytest

from helpers import draw, keys, rawws
from helpers.certs import ThrowawayCA
from helpers.rawws import close_payload, encode_frame
from helpers.redis import wait_until
from helpers.wsclient import WSClient, close_all, run


@pytest.fixture
def test_ca(tmp_path):
    return ThrowawayCA(tmp_path / "ca")


@pytest.fixture
def tls_server(launch, test_ca):
    issued = test_ca.issue("server")
    server = launch(tls_cert=str(issued.cert), tls_key=str(issued.key))
    return server, _verifying_context(test_ca)


def _verifying_context(ca: ThrowawayCA) -> ssl.SSLContext:
    """What a careful client has: the CA as its only root, host names checked."""
    context = ssl.create_default_context(cafile=str(ca.cert))
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    return context


def _https(server, context, method, path, body=None, headers=None):
    conn = http.client.HTTPSConnection(server.host, server.port, timeout=5, context=context)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_a_full_draw_over_wss(tls_server):
    server, context = tls_server

    async def scenario():
        viewer = await WSClient.open(server.ws_url("lobby"), name="viewer", ssl=context)
        host = await WSClient.open(server.ws_url("lobby"), name="host", ssl=context)
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
        status, body = _https(server, context, "GET", path)
        assert status == 200 and marker in body, (path, status, body[:200])


def test_the_api_over_verified_https(tls_server):
    """Room creation, a draw started over https and followed over wss, its record over https."""
    server, context = tls_server
    json_type = {"Content-Type": "application/json"}
    status, body = _https(server, context, "POST", "/api/rooms", b'{"name":"tls-room"}', json_type)
    assert status == 201, body
    key = json.loads(body)["hostKey"]

    async def scenario():
        viewer = await WSClient.open(server.ws_url("tls-room"), name="viewer", ssl=context)
        try:
            await viewer.expect("snapshot")
            started = await asyncio.to_thread(_https, server, context, "POST", "/api/rooms/tls-room/draws", None,
                                              {"Authorization": f"Bearer {key}", **json_type})
            assert started[0] == 202, started
            return await viewer.collect_draw(timeout=15)
        finally:
            await viewer.close()

    seq = run(scenario(), timeout=40)
    assert seq[-1].type == "finished"
    status, body = _https(server, context, "GET", f"/api/draws/{seq[-1]['drawId']}")
    assert status == 200 and json.loads(body)["status"] == "finished"


@pytest.mark.parametrize("kind", ["wrong-host", "expired"])
def test_a_bad_certificate_is_refused_by_a_verifying_client(launch, test_ca, kind):
    """The same CA signs them, so only the host name or the dates can be what is refused."""
    issued = (test_ca.issue("elsewhere", san="DNS:elsewhere.example") if kind == "wrong-host"
              else test_ca.issue("stale", expired=True))
    server = launch(tls_cert=str(issued.cert), tls_key=str(issued.key))
    context = _verifying_context(test_ca)
    expected = "IP address mismatch" if kind == "wrong-host" else "certificate has expired"

    with pytest.raises(ssl.SSLCertVerificationError, match=expected):
        _https(server, context, "GET", "/healthz")

    async def connect():
        await WSClient.open(server.ws_url("lobby"), name="refused", ssl=context)
    with pytest.raises(ssl.SSLCertVerificationError, match=expected):
        run(connect(), timeout=15)

    # The server itself is fine: a client that skips verification gets through.
    lax = ssl.create_default_context()
    lax.check_hostname, lax.verify_mode = False, ssl.CERT_NONE
    assert _https(server, lax, "GET", "/healthz") == (200, b'{"status":"ok"}')


def test_a_room_list_and_settings_over_https(tls_server):
    """With TLS, lws reads the request itself (no front door): a PUT with its body must still reach
    the API, as plain text and as JSON."""
    server, context = tls_server
    json_type = {"Content-Type": "application/json"}
    status, body = _https(server, context, "POST", "/api/rooms", b'{"name":"tls-list"}', json_type)
    assert status == 201, body
    key = json.loads(body)["hostKey"]
    keys.register(key)
    auth = {"Authorization": f"Bearer {key}"}
    status, body = _https(server, context, "PUT", "/api/rooms/tls-list/entrants", b"Ann\nBob\n",
                          {**auth, "Content-Type": "text/plain"})
    assert status == 200 and json.loads(body)["entrants"] == 2, (status, body)
    status, body = _https(server, context, "PUT", "/api/rooms/tls-list/settings", b'{"winners":2}', {**auth, **json_type})
    assert status == 200 and json.loads(body)["settings"]["winners"] == 2, (status, body)
    status, body = _https(server, context, "GET", "/api/rooms/tls-list")
    assert status == 200 and json.loads(body)["entrants"] == 2, (status, body)


# lws' header tables, and so the front door's bound on connections in lws' TLS handshake at once
# (ServerConfig.headerTables, FrontDoor: the bound keeps lws' sorted timeout list short).
HEADER_TABLES = 256


def test_a_wss_storm_past_the_handshake_bound_all_get_in(tls_server):
    """More wss clients at once than the front door lets into lws' TLS handshake: the rest wait
    their turn, none is refused or timed out, and each gets its room's snapshot."""
    server, context = tls_server
    clients = HEADER_TABLES * 2 + 50

    async def scenario():
        opened = await asyncio.gather(*(WSClient.open(server.ws_url("lobby"), name=f"v{i}", ssl=context)
                                        for i in range(clients)), return_exceptions=True)
        viewers = [v for v in opened if isinstance(v, WSClient)]
        try:
            assert len(viewers) == clients, [repr(e) for e in opened if not isinstance(e, WSClient)][:3]
            for v in viewers:
                assert (await v.expect("snapshot"))["room"] == "lobby"
        finally:
            await close_all(viewers)

    run(scenario(), timeout=120)


def test_silent_tls_connections_do_not_hold_up_the_handshakes_behind_them(tls_server):
    """More connections than the handshake bound that send nothing (no ClientHello) take every
    place in lws' TLS handshake, but each for a second at most (FrontDoor.slowTLSNanos), not for
    lws' whole 10 s timeout: the TLS handshake of a real client behind them completes within a
    couple of seconds. (Its request then still waits for one of lws' header tables, which lws
    gives each TLS connection when it adopts it and the silent ones keep until its timeout: as
    before the bound, see Benchmarks/README.md, "Fan-out over TLS".)"""
    server, context = tls_server
    held = lambda: len(os.listdir(f"/proc/{server.proc.pid}/fd"))   # noqa: E731
    before = held()
    silent = [socket.create_connection((server.host, server.port), timeout=5) for _ in range(HEADER_TABLES + 44)]
    try:
        # Accepted (in lws or in line), all ahead of the client below: the server holds each one.
        wait_until(lambda: held() >= before + len(silent), 5, "the server to accept every silent connection")
        started = time.monotonic()
        with socket.create_connection((server.host, server.port), timeout=9) as raw:
            with context.wrap_socket(raw, server_hostname=server.host):
                took = time.monotonic() - started
        assert took < 4, f"a TLS handshake behind {len(silent)} silent connections took {took:.1f} s"
    finally:
        for s in silent:
            s.close()
