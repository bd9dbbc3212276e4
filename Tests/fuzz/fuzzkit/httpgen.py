"""HTTP fuzz cases: raw request bytes on a fresh connection (RFC 9110/9112's edges).

Request lines with odd methods (FOO, TRACE, CONNECT, lower case, empty, huge), targets that are
huge, traversing, absolute or not UTF-8, odd versions; headers that are huge, many, folded,
without a colon, duplicated; `Upgrade: h2c` and broken WebSocket upgrades; Content-Length values
that are negative, huge or not numbers; chunked bodies, good and bad; pipelined requests; and
slow, partial and early-closed sends. Byte-level havoc on all of these.
"""
import json
import random

from . import guards, values, wsgen
from .case import Case, deliver, recut
from .config import derive

# Mostly the methods the server serves, so requests get past the request line into its routes.
METHODS = ["GET"] * 12 + ["POST"] * 8 + ["HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT", "FOO",
                                         "get", "PRI", "", "G ET", "\x00GET", "M" * 2000]
POST_TARGETS = ["/api/rooms", "/api/rooms", "/api/rooms/lobby/draws", "/api/rooms/no-such-room/draws"]
PATHS = ["/healthz", "/metrics", "/", "/index.html", "/api/rooms", "/api/rooms/", "/api/rooms/lobby",
         "/api/rooms/lobby/draws", "/api/draws/1", "/api/draws/-1", "/api/draws/99999999999999999999999",
         "/api/rooms/" + "r" * 70, "/api/rooms/lobby/draws/x", "/api", "/ws/lobby", "/../../etc/passwd",
         "/%2e%2e/%2e%2e/etc/passwd", "/%00", "/%ff%fe", "/caf\udce9", "*", "http://127.0.0.1/healthz",
         "//", "/api/rooms//draws", "healthz", "/a b"]
VERSIONS = ["HTTP/1.1"] * 8 + ["HTTP/1.0", "HTTP/2.0", "HTTP/1.2", "HTTP/9.9", "HTTP/1.1 x", "HTTP/", "http/1.1",
                               "HTTP/1.10", ""]


def _target(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.12:  # huge URL: past any sane header buffer
        return "/api/rooms/" + "a" * rng.choice((1000, 4096, 8192, 65536))
    if r < 0.3:
        return (f"/api/rooms/lobby/draws?limit={rng.choice(values.NUMBER_TEXTS)}"
                f"&cursor={rng.choice(values.NUMBER_TEXTS + ['zzzz', '%ff', 'a' * 500])}").replace(" ", "%20")
    return rng.choice(PATHS)


def _headers(rng: random.Random, method: str, body: bytes) -> tuple:
    """Header lines and the body to send after them (chunked encoding rewrites the body)."""
    h = []
    if rng.random() < 0.9:
        h.append("Host: 127.0.0.1")
    if method in ("POST", "PUT", "PATCH") or rng.random() < 0.2:
        h.append("Content-Type: " + rng.choice(["application/json"] * 3 + ["text/plain", "", "application/json; charset=utf-8"]))
    r = rng.random()
    if r < 0.45:
        h.append(f"Content-Length: {len(body)}")
    elif r < 0.7:
        h.append("Content-Length: " + rng.choice(values.NUMBER_TEXTS))
    elif r < 0.85:
        h.append("Transfer-Encoding: " + rng.choice(["chunked", "chunked", "gzip, chunked", "chunked, identity", "xchunked"]))
        body = _chunked(rng, body)
        if rng.random() < 0.3:
            h.append(f"Content-Length: {rng.choice(values.NUMBER_TEXTS)}")  # both: smuggling shape
    if rng.random() < 0.2:
        h.append("Authorization: " + rng.choice(["Bearer " + "0" * 48, "Bearer", "Basic Zm9vOmJhcg==", "Bearer " + "k" * 5000]))
    for _ in range(rng.choice((0, 0, 1, 3))):
        h.append(rng.choice(["Connection: close", "Connection: keep-alive", "Origin: http://evil.example",
                             "Expect: 100-continue", "Range: bytes=0-99999999999999999999", "Accept: */*",
                             "Cookie: " + "c=" * 300, "If-Modified-Since: never", "X-Forwarded-For: 10.0.0.1"]))
    r = rng.random()
    if r < 0.06:
        h.append("X-Big: " + "v" * rng.choice((4096, 8192, 65536)))
    elif r < 0.12:
        h += [f"X-H{i}: {i}" for i in range(rng.choice((100, 500, 2000)))]
    elif r < 0.2:
        h.append(rng.choice(["NoColonHere", " folded: continuation", "Bad Name: x", "X-Nul: a\x00b", ": empty",
                             "Content-Length: 5\r\nContent-Length: 7", "X-Utf8: caf\xe9", "X-Latin1: caf\udce9"]))
    return h, body


def _chunked(rng: random.Random, body: bytes) -> bytes:
    r = rng.random()
    if r < 0.5:
        return b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in (body[:3], body[3:]) if c) + b"0\r\n\r\n"
    bad = rng.choice([b"ffffffffffffffffff\r\n", b"-1\r\n", b"0x5\r\n", b"5;ext=1\r\nhello\r\n0\r\n\r\n",
                      b"7fffffffffffffff\r\nab", b"5\r\nhel", b"zz\r\n\r\n", b"0\r\nTrailer: x\r\n\r\n"])
    return bad


def request(rng: random.Random) -> bytes:
    method, target, version = rng.choice(METHODS), _target(rng), rng.choice(VERSIONS)
    if method == "POST" and rng.random() < 0.6:
        target = rng.choice(POST_TARGETS)
    body = json.dumps(rng.choice([{}, {"name": f"fz-{rng.randrange(1 << 30):x}"}, {"name": "lobby"}, {"name": ""},
                                  {"name": "x" * 100}, [], "s", None])).encode()
    if rng.random() < 0.1:
        body = rng.choice([b"{", b"\xff\xfe", b"x" * 70000, b""])
    headers, body = _headers(rng, method, body)
    line = f"{method} {target} {version}".rstrip() if version else f"{method} {target}"
    eol = "\r\n" if rng.random() < 0.93 else "\n"
    head = (eol.join([line] + headers) + eol + eol).encode("utf-8", "surrogateescape")
    return head + (body if method not in ("GET", "HEAD") or rng.random() < 0.3 else b"")


def t_request(rng, active):
    return "one request", [request(rng)]


def t_pipeline(rng, active):
    reqs = [request(rng) for _ in range(rng.randint(2, 4))]
    return f"{len(reqs)} pipelined requests", reqs


def t_upgrade(rng, active):
    kind = rng.choice(["h2c", "websocket", "websocket", "other"])
    lines = [f"GET {rng.choice(['/ws/lobby', '/ws/nope', '/healthz', '/'])} HTTP/1.1", "Host: 127.0.0.1"]
    if kind == "h2c":
        lines += ["Connection: Upgrade, HTTP2-Settings", "Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA"]
    elif kind == "websocket":
        lines += [rng.choice(["Connection: Upgrade", "Connection: keep-alive, Upgrade", "Connection: close"]),
                  rng.choice(["Upgrade: websocket", "Upgrade: WebSocket", "Upgrade: websocket, h2c"]),
                  "Sec-WebSocket-Key: " + rng.choice(["dGhlIHNhbXBsZSBub25jZQ==", "", "short", "x" * 300]),
                  "Sec-WebSocket-Version: " + rng.choice(["13", "13", "8", "99", "-1", "", "13, 8"])]
        if rng.random() < 0.4:
            lines.append("Sec-WebSocket-Protocol: " + rng.choice(["live-draw.v1", "chat", "", "live-draw.v1, x" * 50]))
        if rng.random() < 0.2:
            lines.append("Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits")
    else:
        lines += ["Connection: Upgrade", "Upgrade: " + rng.choice(["foo", "TLS/1.0", "", "websocket/2"])]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode()
    frames = b""
    if rng.random() < 0.5:  # frames straight after the request, before any 101 came back
        _, frame_list = wsgen.t_fragments(rng) if rng.random() < 0.5 else wsgen.t_messages(rng)
        frames = guards.apply_ws(b"".join(frame_list), active)
    return f"Upgrade: {kind}" + (" + frames" if frames else ""), [head, frames]


def t_havoc(rng, active):
    data = request(rng)
    rounds = rng.randint(1, 8)
    return f"one request, then {rounds} byte mutation(s)", [values.mutate(rng, data, rounds)]


def t_garbage(rng, active):
    data = rng.choice([rng.randbytes(rng.randint(1, 600)), b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + rng.randbytes(30),
                       b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + rng.randbytes(64), b"\r\n" * 500,
                       b"\x00" * 1000])
    return f"{len(data)} bytes that are not HTTP", [data]


TEMPLATES = [(t_request, 5), (t_pipeline, 1), (t_upgrade, 2), (t_havoc, 3), (t_garbage, 1)]


def generate(seed: int, batch: int, index: int, active_guards: frozenset) -> Case:
    """The HTTP case SEED/BATCH/INDEX (the same bytes wherever it is generated)."""
    rng = random.Random(derive(seed, "http", batch, index))
    template = rng.choices([t for t, _ in TEMPLATES], [w for _, w in TEMPLATES])[0]
    note, pieces = template(rng, active_guards)
    slow = rng.random() < 0.1
    stream = guards.apply_http(b"".join(pieces), active_guards)
    steps = deliver(rng, stream, recut(stream, pieces), slow=slow)
    return Case("http", f"{seed}/{batch}/{index}", template.__name__[2:], note + (", sent slowly" if slow else ""), steps)
