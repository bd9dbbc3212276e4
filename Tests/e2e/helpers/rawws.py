"""A hand-written WebSocket client over a plain socket (RFC 6455, client side only).

Why: the slow-client test needs a peer that completes the handshake and then *never reads*, with
a tiny receive buffer, so the server's writes back up for real. A library client reads in the
background and would hide exactly that. It is also handy for reading whatever a server left in
the socket afterwards, frame by frame, including a close frame the library would swallow.
"""
import base64
import hashlib
import os
import socket
import struct
import time
from dataclasses import dataclass, field
from typing import Optional

from .protocol import SUBPROTOCOL_V1

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def open_raw(host: str, port: int, path: str, rcvbuf: Optional[int] = None,
             subprotocol: Optional[str] = SUBPROTOCOL_V1, timeout: float = 5.0, tls=None,
             source: Optional[str] = None):
    """Connect and complete the upgrade. Returns (socket, bytes already read past the headers).

    `tls`: an ssl.SSLContext for wss (the socket returned is then an SSLSocket).
    `source`: the local address to connect from (e.g. 127.0.0.2, another loopback address).
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        # Must be set before connect so the advertised window is small from the start.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    if source:
        s.bind((source, 0))
    s.settimeout(timeout)
    s.connect((host, port))
    if tls is not None:
        s = tls.wrap_socket(s, server_hostname=host)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if subprotocol:
        lines.append(f"Sec-WebSocket-Protocol: {subprotocol}")
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    buf = b""
    deadline = time.monotonic() + timeout
    while b"\r\n\r\n" not in buf:
        if time.monotonic() > deadline:
            raise TimeoutError("no upgrade response")
        chunk = s.recv(4096)
        if not chunk:
            raise ConnectionError(f"closed during handshake: {buf!r}")
        buf += chunk
    head, rest = buf.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), f"upgrade refused: {head!r}"
    accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
    assert accept.encode() in head, f"bad Sec-WebSocket-Accept in {head!r}"
    return s, rest


def encode_frame(opcode: int, payload: bytes, fin: bool = True, masked: bool = True,
                 claimed_length: Optional[int] = None, rsv: int = 0, mask_key: Optional[bytes] = None,
                 length_form: Optional[int] = None) -> bytes:
    """A client frame: masked, as RFC 6455 requires, unless `masked=False`.

    `claimed_length` puts another length in the header than the payload has (a lie the server
    must survive); `rsv` sets the reserved bits (0-7). `mask_key` (4 bytes) replaces the random
    key, so a seeded fuzz case is the same bytes every time; `length_form` forces the length's
    encoding, 7 (< 126, in the second byte), 16 or 64 bits, even where it is not the shortest.
    """
    first = (0x80 if fin else 0) | (rsv & 7) << 4 | opcode
    n = len(payload) if claimed_length is None else claimed_length
    mask_bit = 0x80 if masked else 0
    form = length_form or (7 if n < 126 else 16 if n < 65536 else 64)
    if form == 7:
        header = struct.pack("!BB", first, mask_bit | n)
    elif form == 16:
        header = struct.pack("!BBH", first, mask_bit | 126, n)
    else:
        header = struct.pack("!BBQ", first, mask_bit | 127, n)
    if not masked:
        return header + payload
    mask = mask_key or os.urandom(4)
    masked_payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked_payload


def close_payload(code: int, reason: bytes = b"") -> bytes:
    return struct.pack("!H", code) + reason


@dataclass
class FrameReader:
    """Incremental parser of server frames (unmasked); reassembles fragmented messages."""
    buf: bytearray = field(default_factory=bytearray)
    messages: list = field(default_factory=list)   # (opcode, payload) of complete data messages
    close: Optional[tuple] = None                   # (code, reason) once a close frame is seen
    pongs: list = field(default_factory=list)       # payloads of pong frames, in order
    pings: list = field(default_factory=list)       # payloads of ping frames, in order (never answered)
    _partial: Optional[list] = None

    def feed(self, data: bytes) -> None:
        self.buf += data
        while True:
            if len(self.buf) < 2:
                return
            b0, b1 = self.buf[0], self.buf[1]
            n = b1 & 0x7F
            pos = 2
            if n == 126:
                if len(self.buf) < 4:
                    return
                n = struct.unpack("!H", self.buf[2:4])[0]
                pos = 4
            elif n == 127:
                if len(self.buf) < 10:
                    return
                n = struct.unpack("!Q", self.buf[2:10])[0]
                pos = 10
            if b1 & 0x80:
                pos += 4  # a server must not mask, but don't choke on it
            if len(self.buf) < pos + n:
                return
            payload = bytes(self.buf[pos:pos + n])
            del self.buf[:pos + n]
            self._frame(b0 & 0x80 != 0, b0 & 0x0F, payload)

    def _frame(self, fin: bool, opcode: int, payload: bytes) -> None:
        if opcode == 0x8:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
            self.close = (code, payload[2:].decode("utf-8", "replace"))
        elif opcode == 0xA:
            self.pongs.append(payload)
        elif opcode == 0x9:
            self.pings.append(payload)  # not answered, on purpose (this peer is "stuck")
        elif opcode == 0x0:
            if self._partial is not None:
                self._partial[1] += payload
                if fin:
                    self.messages.append((self._partial[0], self._partial[1]))
                    self._partial = None
        else:
            if fin:
                self.messages.append((opcode, payload))
            else:
                self._partial = [opcode, payload]


def drain(sock: socket.socket, reader: FrameReader, timeout: float) -> str:
    """Read everything until the connection ends; return how: 'close', 'eof', 'reset' or 'timeout'.

    'timeout' means the server kept the connection open for `timeout` seconds of silence.
    """
    deadline = time.monotonic() + timeout
    hard_deadline = time.monotonic() + max(30.0, 4 * timeout)  # bounded even if data keeps trickling
    sock.settimeout(0.5)
    while True:
        if time.monotonic() > min(deadline, hard_deadline):
            return "timeout"
        try:
            chunk = sock.recv(1 << 20)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return "close" if reader.close else "reset"
        if not chunk:
            return "close" if reader.close else "eof"
        deadline = time.monotonic() + timeout  # data is still flowing: the timeout is for silence
        reader.feed(chunk)
        if reader.close:
            return "close"


def read_until(sock: socket.socket, reader: FrameReader, done, timeout: float) -> str:
    """Read frames until `done(reader)` holds; return 'ok', or how the connection ended first
    ('close', 'eof', 'reset') or 'timeout'."""
    deadline = time.monotonic() + timeout
    while not done(reader):
        if reader.close:
            return "close"
        left = deadline - time.monotonic()
        if left <= 0:
            return "timeout"
        sock.settimeout(min(left, 0.5))
        try:
            chunk = sock.recv(1 << 16)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return "reset"
        if not chunk:
            return "eof"
        reader.feed(chunk)
    return "ok"


def open_joined(host: str, port: int, room: str = "lobby", timeout: float = 5.0, tls=None,
                rcvbuf: Optional[int] = None):
    """A raw client that has its snapshot: (socket, reader). `rcvbuf` as in open_raw."""
    sock, rest = open_raw(host, port, f"/ws/{room}", rcvbuf, timeout=timeout, tls=tls)
    reader = FrameReader()
    reader.feed(rest)
    how = read_until(sock, reader, lambda r: r.messages, timeout)
    assert how == "ok" and b'"snapshot"' in reader.messages[0][1], f"no snapshot ({how})"
    return sock, reader


def wait_closed(sock: socket.socket, timeout: float) -> Optional[float]:
    """Discard input until the server closes the connection; seconds it took, None on timeout."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        sock.settimeout(max(0.05, min(0.5, timeout - (time.monotonic() - start))))
        try:
            if not sock.recv(1 << 16):
                return time.monotonic() - start
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - start
    return None
