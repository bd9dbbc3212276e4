"""Plays one fuzz case over a real socket and sums up how the server answered.

Fuzz traffic comes from 127.0.0.3 and up, the oracle's normal client from 127.0.0.2, so limits a
server applies per address (connections in handshake, room creations) cannot count one against
the other. Whatever the server answers is only recorded here, never judged: closing, refusing
or answering 4xx is what a correct server does with most of these bytes. The oracle judges.
"""
import re
import socket
import struct
import time

from helpers import rawws

from .case import Abort, Case, HalfClose, Pause, Send

FUZZ_SOURCES = [f"127.0.0.{i}" for i in range(3, 19)]
IDLE_READ_S = 0.3    # after the last step, read until the server is silent this long…
MAX_READ_S = 2.0     # …or this long in all (a lobby connection keeps getting presence)
CONNECT_TIMEOUT_S = 5.0
_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


def run_case(host: str, port: int, case: Case, source: str) -> str:
    """Play `case`; return a one-line summary (never raises for anything the server does)."""
    try:
        if case.kind == "ws":
            try:
                sock, early = rawws.open_raw(host, port, case.path, timeout=CONNECT_TIMEOUT_S, source=source)
            except AssertionError as e:   # an HTTP refusal instead of 101 (404, 503, …)
                return "upgrade refused: " + str(e).split("\\r\\n", 1)[0][-40:]
        else:
            sock = socket.create_connection((host, port), CONNECT_TIMEOUT_S, source_address=(source, 0))
            early = b""
    except (OSError, ConnectionError, TimeoutError) as e:
        return f"connect failed: {type(e).__name__}"
    with sock:
        sent = _play(sock, case)
        if sent == "aborted":
            return "client aborted"
        received, ending = _read(sock)
    return sent + "; " + _summary(case, early + received, ending)


def _play(sock: socket.socket, case: Case) -> str:
    for step in case.steps:
        try:
            if isinstance(step, Send):
                sock.sendall(step.data)
            elif isinstance(step, Pause):
                # Not a wait for a condition: the pause IS the input (a slow sender).
                time.sleep(step.ms / 1000)
            elif isinstance(step, HalfClose):
                sock.shutdown(socket.SHUT_WR)
            elif isinstance(step, Abort):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return "aborted"
        except socket.timeout:
            return "send blocked (server not reading)"
        except OSError as e:  # EPIPE, ECONNRESET, ENOTCONN: the server already closed
            return f"server closed while we sent ({e.strerror or type(e).__name__})"
    return "sent all"


def _read(sock: socket.socket) -> tuple:
    chunks, start = [], time.monotonic()
    sock.settimeout(IDLE_READ_S)
    while time.monotonic() - start < MAX_READ_S:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return b"".join(chunks), "still open"
        except OSError:
            return b"".join(chunks), "reset"
        if not chunk:
            return b"".join(chunks), "closed"
        chunks.append(chunk)
    return b"".join(chunks), "still talking"


def _summary(case: Case, data: bytes, ending: str) -> str:
    if case.kind == "http":
        statuses = [int(s) for s in _STATUS.findall(data)]
        return f"HTTP {statuses or 'no status'}, {ending}"
    reader = rawws.FrameReader()
    reader.feed(data)
    close = f"close {reader.close[0]}" if reader.close else "no close frame"
    return f"{close}, {ending}, {len(reader.messages)} message(s)"
