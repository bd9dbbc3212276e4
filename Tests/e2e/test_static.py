"""The static page server never hands out a file from outside the public folder.

ServerConfig.publicDir: "Nothing outside it is ever served." Requests are written byte for byte on
raw sockets, because real clients normalise `..` and percent-escapes before sending.
"""
import os
import secrets

import pytest

from helpers import http


@pytest.fixture
def layout(tmp_path, public_dir):
    """public/ beside a secret file; public/ holds symlinks that point outside it."""
    token = "SECRET-" + secrets.token_hex(16)
    secret = tmp_path / "secret.txt"
    secret.write_text(token + "\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text(token + "\n")
    (public_dir / "inside.txt").write_text("INSIDE-MARKER\n")
    (public_dir / "sub").mkdir()
    (public_dir / "sub" / "page.txt").write_text("SUB-MARKER\n")
    os.symlink(secret, public_dir / "link.txt")                 # file symlink to the outside
    os.symlink(tmp_path / "outside", public_dir / "dirlink")      # directory symlink to the outside
    os.symlink("/etc/passwd", public_dir / "passwd")              # absolute symlink
    return {"token": token, "secret": secret, "tmp": tmp_path}


def _get(server, target: bytes) -> bytes:
    req = b"GET " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    return http.raw_request(server.host, server.port, req)


def test_files_inside_public_are_served(server, layout):
    """Positive control: the probe works, so the traversal test below can fail."""
    for target, marker in [(b"/inside.txt", b"INSIDE-MARKER"), (b"/sub/page.txt", b"SUB-MARKER"),
                           (b"/", b"INDEX-MARKER")]:
        raw = _get(server, target)
        assert http.status_of(raw) == 200 and marker in raw, f"{target!r}: {raw[:200]!r}"


def test_no_path_escapes_public(server, layout):
    abs_secret = str(layout["secret"]).encode()
    tmp_name = layout["tmp"].name.encode()
    targets = [
        b"/../secret.txt",
        b"/../../secret.txt",
        b"/sub/../../secret.txt",
        b"/./../secret.txt",
        b"/%2e%2e/secret.txt",
        b"/%2E%2E/secret.txt",
        b"/..%2fsecret.txt",
        b"/..%2Fsecret.txt",
        b"/%2e%2e%2fsecret.txt",
        b"/sub/%2e%2e%2f%2e%2e%2fsecret.txt",
        b"/%252e%252e/secret.txt",
        b"/%252e%252e%252fsecret.txt",
        b"/..%252fsecret.txt",
        b"/%c0%ae%c0%ae/secret.txt",
        b"/.%2e/secret.txt",
        b"/..\\secret.txt",
        b"/..%5csecret.txt",
        b"/%5c..%5csecret.txt",
        b"/sub\\..\\..\\secret.txt",
        b"\\..\\secret.txt",
        b"../secret.txt",
        b"/" + abs_secret,
        b"/" + abs_secret.replace(b"/", b"%2f"),
        abs_secret,
        b"//" + abs_secret.lstrip(b"/"),
        b"http://127.0.0.1/../secret.txt",
        b"/" + b"../" * 12 + abs_secret.lstrip(b"/"),
        b"/%2e%2e/" + tmp_name + b"/secret.txt",
        b"/secret.txt%00.html",
        b"/..%00/secret.txt",
        b"/../secret.txt%00",
        b"/link.txt",
        b"/dirlink/secret.txt",
        b"/dirlink/../secret.txt",
        b"/passwd",
        b"/....//secret.txt",
        b"/..;/secret.txt",
    ]
    offenders = []
    for target in targets:
        raw = _get(server, target)
        if layout["token"].encode() in raw or b"root:x:0:0" in raw:
            offenders.append((target, http.status_of(raw)))
    # A literal NUL inside the request line, on the wire.
    for target in (b"/../secret.txt\x00", b"/inside.txt\x00/../../secret.txt"):
        raw = _get(server, target)
        if layout["token"].encode() in raw:
            offenders.append((target, http.status_of(raw)))
    assert not offenders, f"files outside public/ were served for: {offenders}"
    # The server survived all of that.
    assert http.request(server, "GET", "/healthz").status == 200


def test_files_carry_validators_and_revalidate_with_304(server, public_dir):
    """Browsers keep the page and ask before each use (`no-cache`); an unchanged file costs a
    304 with no body, a changed one gets a new tag and is sent whole."""
    (public_dir / "app.js").write_text("export const v = 1;\n")
    first = http.request(server, "GET", "/app.js")
    assert first.status == 200 and first.body == b"export const v = 1;\n"
    etag = first.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert first.headers["cache-control"] == "no-cache"
    assert first.headers["last-modified"].endswith(" GMT")

    for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        again = http.request(server, "GET", "/app.js", headers={"If-None-Match": sent})
        assert again.status == 304 and again.body == b"", sent
        assert again.headers["etag"] == etag and again.headers["cache-control"] == "no-cache"
        assert "no-store" not in again.headers.get("cache-control", "")
    assert http.request(server, "HEAD", "/app.js", headers={"If-None-Match": etag}).status == 304
    assert http.request(server, "GET", "/app.js", headers={"If-None-Match": '"stale"'}).status == 200

    (public_dir / "app.js").write_text("export const v = 22;\n")  # a deploy
    changed = http.request(server, "GET", "/app.js", headers={"If-None-Match": etag})
    assert changed.status == 200 and changed.body == b"export const v = 22;\n"
    assert changed.headers["etag"] != etag


def test_api_answers_are_never_cached(server):
    res = http.request(server, "GET", "/healthz")
    assert res.headers["cache-control"] == "no-store" and "etag" not in res.headers
