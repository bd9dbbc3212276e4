"""Plain HTTP against the server: a normal client, and raw bytes for requests a client would fix.

Why raw sockets: http.client, curl and browsers normalise `/../` and friends before sending, so
path-traversal probes must be written byte for byte. Every body read here goes through the
host-key leak check, except the one response that legitimately carries a key (room creation).
"""
import http.client
import json
import socket
import time
from dataclasses import dataclass
from typing import Optional

from . import keys


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes

    @property
    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def error_code(self) -> Optional[str]:
        """`error.code` of a `{"error":{"code":…,"message":…}}` body (asserting that shape)."""
        doc = self.json
        assert isinstance(doc, dict) and isinstance(doc.get("error"), dict), f"not an error body: {self.body[:200]!r}"
        err = doc["error"]
        assert isinstance(err.get("code"), str) and isinstance(err.get("message"), str) and err["message"], \
            f"error body needs a code and a message: {doc}"
        return err["code"]


def request(server, method: str, path: str, body=None, headers: Optional[dict] = None,
            timeout: float = 5.0, may_carry_key: bool = False, source: Optional[str] = None) -> Response:
    """One request on a fresh connection. `body` may be bytes, str, or a JSON-able object.

    `source`: the loopback address to send from, e.g. "127.0.0.2" to be another client.
    """
    if body is not None and not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    if isinstance(body, str):
        body = body.encode("utf-8")
    conn = http.client.HTTPConnection(server.host, server.port, timeout=timeout,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}))
        resp = conn.getresponse()
        data = resp.read()
        out = Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)
    finally:
        conn.close()
    if not may_carry_key:
        keys.check(data.decode("utf-8", "replace"), f"HTTP {method} {path}")
    return out


def start_draw(server, room: str, key: Optional[str], timeout: float = 5.0,
               source: Optional[str] = None) -> Response:
    # Every API POST says it is JSON (a bodyless one too): the server answers 415 otherwise.
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    return request(server, "POST", f"/api/rooms/{room}/draws", headers=headers, timeout=timeout,
                   source=source)


def create_room(server, name: Optional[str] = None, source: Optional[str] = None) -> Response:
    """POST /api/rooms; registers the returned key with the leak check."""
    body = {} if name is None else {"name": name}
    resp = request(server, "POST", "/api/rooms", body=body, headers={"Content-Type": "application/json"},
                   may_carry_key=True, source=source)
    if resp.status == 201:
        keys.register(resp.json["hostKey"])
    return resp


def api(server, method: str, path: str, body=None, key: Optional[str] = None, timeout: float = 10.0):
    """(status, parsed JSON body or None) of an HTTP API call, as a page's script makes it.

    Every POST says it is JSON, even without a body (the server answers 415 otherwise); `key`
    goes in as `Authorization: Bearer`.
    """
    headers = {}
    if body is not None or method == "POST":
        headers["Content-Type"] = "application/json"
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    resp = request(server, method, path, body=body, headers=headers, timeout=timeout)
    return resp.status, json.loads(resp.body or b"null")


def created_room(server, name: Optional[str] = None) -> dict:
    """The body of a successful create_room (`room`, `hostKey`, ...); fails the test otherwise."""
    resp = create_room(server, name)
    assert resp.status == 201, f"creating a room answered {resp.status}: {resp.body[:300]!r}"
    return resp.json


def wait_health(server, status: int, timeout: float = 5.0) -> Response:
    """Polls /healthz until it answers `status` (a condition, with a deadline): e.g. 503 once a
    SIGTERM has made the server drain."""
    deadline = time.monotonic() + timeout
    while True:
        got = request(server, "GET", "/healthz")
        if got.status == status:
            return got
        assert time.monotonic() < deadline, f"/healthz still {got.status} {got.body!r}"
        time.sleep(0.02)


def raw_request(host: str, port: int, data: bytes, timeout: float = 3.0) -> bytes:
    """Send bytes as-is and read until the server closes (or `timeout` passes without data).

    A reset is an answer too (nothing was served), so it ends the read without raising.
    """
    chunks = []
    with socket.create_connection((host, port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            return b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def status_of(raw: bytes) -> Optional[int]:
    """Status code of a raw HTTP response, or None if there was no response line."""
    if not raw.startswith(b"HTTP/"):
        return None
    try:
        return int(raw.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def metrics(server) -> dict:
    """Every series `/metrics` lists, as it names it (`name` or `name{label="value",...}`) → value."""
    text = request(server, "GET", "/metrics").body.decode()
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            out[series] = float(value)
    return out


def metric(server, series: str) -> float:
    """One series' value, exactly as `/metrics` names it (0 when it is not listed yet)."""
    return metrics(server).get(series, 0.0)
