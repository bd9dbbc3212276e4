"""HTTP/1.1 as RFC 9110/9112 and PROTOCOL.md section 5.4 say (issue 11, finding 11).

Raw sockets, because the requests under test are the ones a well-behaved client library would
refuse to send (an h2c upgrade it then does not complete, a 5 KB URL, CONNECT, TRACE, FOO).
"""
import json
import shutil
import subprocess

import pytest

from helpers import http

H2C_HEAD = (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n"
            b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n")


def _raw(server, data: bytes) -> tuple[int, dict, bytes]:
    raw = http.raw_request(server.host, server.port, data, timeout=5)
    status = http.status_of(raw)
    assert status is not None, f"no HTTP answer: {raw[:200]!r}"
    head, _, body = raw.partition(b"\r\n\r\n")
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode()] = value.strip().decode()
    return status, headers, body


def _error_code(body: bytes) -> str:
    return http.Response(0, {}, body).error_code()


def test_an_h2c_upgrade_is_served_as_http11(shared_server):
    status, headers, body = _raw(shared_server, H2C_HEAD)
    assert status == 200 and json.loads(body) == {"status": "ok"}, (status, body)
    assert "upgrade" not in headers
    if shutil.which("curl"):
        out = subprocess.run(["curl", "--http2", "-s", "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
                              "--max-time", "5", f"http://127.0.0.1:{shared_server.port}/healthz"],
                             capture_output=True, text=True, timeout=10)
        assert out.stdout == "200 1.1", out


def test_a_url_over_the_limit_is_414(shared_server):
    status, _, body = _raw(shared_server, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 414 and _error_code(body) == "uri_too_long"
    many = "&".join(f"p{i}=1" for i in range(40))
    status, _, body = _raw(shared_server, f"GET /api/rooms/lobby/draws?{many} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 414 and _error_code(body) == "uri_too_long"


@pytest.mark.parametrize("head", [
    b"GET / HTTP/1.1\r\nHost: x\r\nCookie: " + b"c" * 20_000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(80)) + b"\r\n",
], ids=["20 KB cookie", "80 headers"])
def test_headers_over_the_limit_are_431(shared_server, head):
    status, _, body = _raw(shared_server, head)
    assert status == 431 and _error_code(body) == "headers_too_large"


@pytest.mark.parametrize("method,path,allow", [
    ("FOO", "/healthz", "GET, HEAD"),
    ("TRACE", "/", "GET, HEAD"),
    ("OPTIONS", "/api/rooms", "POST"),
    ("OPTIONS", "/api/rooms/lobby/draws", "GET, HEAD, POST"),
    ("PUT", "/api/rooms/lobby", "GET, HEAD, DELETE"),
    ("PUT", "/api/rooms/lobby/key", "POST"),
    ("CONNECT", "127.0.0.1:443", "GET, HEAD, POST, PUT, DELETE"),
    ("OPTIONS", "*", "GET, HEAD, POST, PUT, DELETE"),
    ("POST", "/healthz", "GET, HEAD"),       # answered by the API's own routing
    ("DELETE", "/healthz", "GET, HEAD"),     # so is DELETE
])
def test_other_methods_get_405_json_with_allow(shared_server, method, path, allow):
    status, headers, body = _raw(shared_server, f"{method} {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 405, (method, path, status, body[:200])
    assert headers.get("allow") == allow
    assert headers.get("content-type") == "application/json"
    assert _error_code(body) == "method_not_allowed"


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/rooms/lobby"])
def test_head_works_wherever_get_does(shared_server, path):
    get = _raw(shared_server, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    head = _raw(shared_server, f"HEAD {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert get[0] == head[0] == 200, (get[0], head[0])
    assert head[2] == b"", f"HEAD {path} sent a body"
    assert head[1]["content-type"] == get[1]["content-type"]
    if path != "/api/rooms/lobby":   # the snapshot's serverTime changes its length
        assert head[1]["content-length"] == get[1]["content-length"] == str(len(get[2]))


def test_malformed_requests_are_400_json(shared_server):
    for bad in [b"GET / HTTP/1.1\r\n\r\n",                                   # no Host
                b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                b"GET / HTTP/1.1\nHost: x\n\n"]:
        status, _, body = _raw(shared_server, bad)
        assert status == 400 and _error_code(body) == "bad_request", (bad, status, body[:200])


def test_every_plain_response_closes_its_connection(shared_server):
    # Two requests in one packet: one answer, which says it closes (the next request must come
    # through the front door again, on a new connection).
    raw = http.raw_request(shared_server.host, shared_server.port,
                           b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert raw.count(b"HTTP/1.1 200") == 1 and b"connection: close" in raw.lower(), raw[:300]


# -- issue 31: finding 6 and the room names lws used to merge -------------------------------------

@pytest.mark.parametrize("bad", [b"HEAD /%zz HTTP/1.1\r\nHost: x\r\n\r\n",      # refused by the parser
                                 b"HEAD / HTTP/1.1\r\n\r\n",                     # no Host
                                 b"HEAD /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"],
                         ids=["bad escape", "no Host", "414"])
def test_the_front_doors_answers_to_head_have_no_body(shared_server, bad):
    """RFC 9110 §9.3.2: the same status and headers as a GET would get, never a body."""
    status, headers, body = _raw(shared_server, bad)
    assert status in (400, 414) and body == b"", (status, body[:200])
    assert int(headers["content-length"]) > 0   # the GET's body length, as HEAD says it


@pytest.mark.parametrize("method", ["POST", "HEAD"])
def test_only_a_get_is_a_websocket_handshake(shared_server, method):
    """RFC 6455 §4.1: the handshake's method MUST be GET; anything else is no upgrade."""
    head = (f"{method} /ws/lobby HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
    status, headers, body = _raw(shared_server, head)
    assert status != 101 and "sec-websocket-accept" not in headers, (status, headers)
    if method == "POST":
        assert status == 405 and headers.get("allow") == "GET, HEAD" and _error_code(body) == "method_not_allowed"


@pytest.mark.parametrize("path,code", [
    ("/api/rooms/%2F", "unknown_room"), ("/api/rooms/.", "unknown_room"), ("/api/rooms/%2e%2e", "unknown_room"),
    ("/api/rooms/a%2F..", "unknown_room"), ("/api/rooms/%2F%2F", "unknown_room"), ("/api/rooms/%2F/draws", "unknown_room"),
    ("/api/rooms/./qr.svg", "unknown_room"), ("/api/draws/..", "unknown_draw"), ("/api/draws/%2F/entrants", "unknown_draw"),
])
def test_names_lws_would_merge_are_unknown_not_another_path(shared_server, path, code):
    """lws decodes and then collapses `//`, `.` and `..`: `/api/rooms/%2F` used to reach the
    API as `/api/rooms/` (the room list, whose GET is 405)."""
    status, _, body = _raw(shared_server, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 404 and _error_code(body) == code, (path, status, body[:200])
