"""Frames a client must not send are answered with a close frame, and never hurt the server.

Issue 11, findings 1, 8 and 9; PROTOCOL.md section 4 (close codes) and 3 (limits). A raw socket
client (helpers/rawws.py) sends exactly the bytes under test, including the ones a library
client refuses to produce, and reads the server's close frame itself.
"""
import json
import socket
import time

import pytest

from helpers import http, rawws
from helpers.rawws import close_payload, encode_frame


def _send_and_read_close(server, data: bytes):
    """Joins, sends `data`, reads until the server's close frame: (code, reason, reader)."""
    sock, reader = rawws.open_joined(server.host, server.port)
    try:
        sock.sendall(data)
        how = rawws.read_until(sock, reader, lambda r: r.close, timeout=5)
        assert how == "ok", f"no close frame from the server: {how}"
        return reader.close[0], reader.close[1], reader
    finally:
        sock.close()


def _assert_healthy(server):
    assert server.proc.poll() is None, "the server process died"
    assert http.request(server, "GET", "/healthz", timeout=5).status == 200
    sock, _ = rawws.open_joined(server.host, server.port)
    sock.close()


def test_huge_continuation_is_too_big_not_a_crash(server):
    """Finding 1: FIN=0 text with 1 byte, then a continuation claiming 2^63-1 bytes (no payload).

    On the unfixed server this trapped (arithmetic overflow) and killed the process.
    """
    data = encode_frame(0x1, b"a", fin=False) + encode_frame(0x0, b"", claimed_length=2**63 - 1)
    code, _, _ = _send_and_read_close(server, data)
    assert code == 1009
    _assert_healthy(server)


@pytest.mark.parametrize("length", [2**64 - 1, 2**63])
def test_length_with_top_bit_set_is_a_protocol_error(server, length):
    code, _, _ = _send_and_read_close(server, encode_frame(0x1, b"", claimed_length=length))
    assert code == 1002
    _assert_healthy(server)


@pytest.mark.parametrize("opcode,payload", [(0x9, b"hello"), (0x1, b'{"type":"ping","id":1}')])
def test_unmasked_frame_closes_1002(server, opcode, payload):
    """Finding 8: a client frame without a mask fails the connection; the ping is not answered."""
    code, _, reader = _send_and_read_close(server, encode_frame(opcode, payload, masked=False))
    assert code == 1002
    assert not reader.pongs, "an unmasked ping was answered"
    assert not any(b'"pong"' in m[1] for m in reader.messages), "an unmasked message was handled"
    _assert_healthy(server)


@pytest.mark.parametrize("code", [5000, 65535, 1005, 1006, 1015, 999, 2000])
def test_close_codes_a_client_may_not_send_close_1002(server, code):
    """Finding 9: not echoed (5000 and 65535 were), but answered with 1002."""
    answer, _, _ = _send_and_read_close(server, encode_frame(0x8, close_payload(code)))
    assert answer == 1002


def test_close_reason_that_is_not_utf8_closes_1007(server):
    answer, _, _ = _send_and_read_close(server, encode_frame(0x8, close_payload(1000, b"\xc3\x28 bad")))
    assert answer == 1007


@pytest.mark.parametrize("size", [126, 1000])
def test_ping_over_125_bytes_gets_a_1002_close_frame(server, size):
    """Finding 9: a close frame, not a bare TCP close (nor a silently dropped ping)."""
    code, _, reader = _send_and_read_close(server, encode_frame(0x9, b"p" * size))
    assert code == 1002
    assert not reader.pongs


@pytest.mark.parametrize("data", [
    encode_frame(0x1, b"x", rsv=4),                       # reserved bit, no extension negotiated
    encode_frame(0x3, b"x"),                              # reserved opcode
    encode_frame(0x9, b"x", fin=False),                   # fragmented control frame
    encode_frame(0x0, b"x"),                              # continuation without a message
    encode_frame(0x1, b"a", fin=False) + encode_frame(0x1, b"b"),  # new message inside one
    encode_frame(0x8, b"\x03"),                           # 1-byte close payload
], ids=["rsv", "opcode", "fragmented-ping", "orphan-continuation", "nested-message", "close-1-byte"])
def test_other_framing_errors_close_1002(server, data):
    code, _, _ = _send_and_read_close(server, data)
    assert code == 1002


def test_text_that_is_not_utf8_closes_1007(server):
    # Valid in each fragment's first byte, broken across the fragment boundary.
    data = encode_frame(0x1, b'{"type":"ping","id":"\xe2', fin=False) + encode_frame(0x0, b'("}')
    code, _, _ = _send_and_read_close(server, data)
    assert code == 1007


def test_ping_is_answered_with_its_payload_and_a_valid_close_is_echoed(server):
    sock, reader = rawws.open_joined(server.host, server.port)
    try:
        sock.sendall(encode_frame(0x9, b"are you there"))
        assert rawws.read_until(sock, reader, lambda r: r.pongs, timeout=5) == "ok"
        assert reader.pongs == [b"are you there"]
        # A fragmented message with a ping between its fragments still works.
        text = json.dumps({"type": "ping", "id": 42}).encode()
        sock.sendall(encode_frame(0x1, text[:5], fin=False) + encode_frame(0x9, b"mid")
                     + encode_frame(0x0, text[5:]))
        assert rawws.read_until(sock, reader, lambda r: any(b'"pong"' in m[1] for m in r.messages), 5) == "ok"
        assert reader.pongs[-1] == b"mid"
        sock.sendall(encode_frame(0x8, close_payload(4000, b"bye")))
        assert rawws.read_until(sock, reader, lambda r: r.close, timeout=5) == "ok"
        assert reader.close[0] == 4000
        assert rawws.wait_closed(sock, timeout=5) is not None, "the server kept the socket open"
    finally:
        sock.close()


def test_frames_sent_before_the_101_are_ignored(server):
    """RFC 6455 4.1: a client waits for the server's handshake before it sends frames.

    Bytes that arrive with the request (same packet) are read by lws while it parses the request
    and stay in its buffer; the server never sees them. The connection then goes on normally
    with what the client sends after the 101.
    """
    import base64
    import os
    sock = socket.create_connection((server.host, server.port), timeout=5)
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /ws/lobby HTTP/1.1\r\nHost: {server.host}:{server.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        early = encode_frame(0x1, json.dumps({"type": "ping", "id": "early"}).encode())
        sock.sendall(request.encode() + early)
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = sock.recv(4096)
            assert chunk, "closed during the handshake"
            buf += chunk
        head, rest = buf.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head
        reader = rawws.FrameReader()
        reader.feed(rest)
        sock.sendall(encode_frame(0x1, json.dumps({"type": "ping", "id": "late"}).encode()))
        got_late = lambda r: any(b'"late"' in m[1] for m in r.messages)  # noqa: E731
        assert rawws.read_until(sock, reader, got_late, timeout=5) == "ok"
        assert not any(b'"early"' in m[1] for m in reader.messages)
        assert reader.close is None
    finally:
        sock.close()
    _assert_healthy(server)


def test_a_peer_that_vanishes_is_forgotten(server):
    """End of input without a close frame: the server drops the connection (viewer count)."""
    sock, _ = rawws.open_joined(server.host, server.port)
    sock.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if http.request(server, "GET", "/api/rooms/lobby", timeout=5).json["viewers"] == 0:
            return
        time.sleep(0.05)
    pytest.fail("the vanished viewer is still counted")
