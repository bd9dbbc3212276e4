"""Uploads that cost what they weigh (issue 31, findings 1, 3, 4, 5): an entrant list upload's
room, key and Content-Type are checked from its head, before a byte of its body is read (401, 403,
404, 415 at once, `100 Continue` only after); the bodies read at once are bounded in all, per
address and per room; a body's deadline follows its progress (a minimum rate), so a slow honest
host gets through and a trickle does not; and every upload gets its answer.

Real processes over loopback; every wait is bounded by a deadline. docs/PROTOCOL.md §5.4, §5.6.
"""
import socket
import time

from helpers import http
from helpers.rooms import room_snapshot

from helpers.uploads import BIG, _connect, _head, _list, _read_answer


def _key(srv, name):
    return http.created_room(srv, name)["hostKey"]


def test_an_upload_is_refused_from_its_head_before_its_body(server):
    """Findings 1 and 4: no key, a wrong key, an unknown room, a wrong type: each answered at once,
    the body never sent (the old front door read 16 MB before any check, so these got nothing)."""
    key = _key(server, "gate")
    cases = [
        (_head("gate", None, BIG), 401, b'"unauthorized"'),
        (_head("gate", "0" * 48, BIG), 403, b'"forbidden"'),
        (_head("no-such-room", key, BIG), 404, b'"unknown_room"'),
        (_head("gate", key, BIG, content_type="application/x-www-form-urlencoded"), 415, b'"unsupported_media_type"'),
        (_head("lobby", None, BIG), 401, b'"unauthorized"'),
    ]
    for head, status, code in cases:
        with _connect(server) as s:
            s.sendall(head + b"A")  # one byte of body: the answer must not wait for the rest
            raw = _read_answer(s, timeout=3)
        assert http.status_of(raw) == status and code in raw, (head[:60], raw[:300])
    # Refused with Expect: no 100 Continue first, the refusal straight away.
    with _connect(server) as s:
        s.sendall(_head("gate", None, BIG, expect=True))
        raw = _read_answer(s, timeout=3)
    assert raw.startswith(b"HTTP/1.1 401"), raw[:200]
    # Admitted with Expect: 100 Continue, then the body, then the answer.
    body = _list(2000)
    with _connect(server) as s:
        s.sendall(_head("gate", key, len(body), expect=True))
        interim = _read_answer(s, timeout=3)
        assert interim.startswith(b"HTTP/1.1 100"), interim[:200]
        s.sendall(body)
        raw = _read_answer(s, timeout=10)
    assert http.status_of(raw) == 200, raw[:300]
    assert room_snapshot(server, "gate")["entrants"] == 2000


def test_keyless_trickles_do_not_block_a_hosts_upload(server):
    """Finding 1, the issue's attack: four connections from one address trickle 16 MB uploads to
    the lobby without a key; a host's 1.1 MB upload still goes through (it got 503 busy 28 times
    out of 28 before)."""
    key = _key(server, "victim")
    attackers = []
    try:
        for _ in range(4):
            s = _connect(server)
            s.sendall(_head("lobby", None, BIG) + b"x")
            attackers.append(s)
        for s in attackers:  # each is answered 401 at once, and holds nothing
            assert http.status_of(_read_answer(s, timeout=3)) == 401
        body = _list(70_000)  # about 1.1 MB
        with _connect(server) as s:
            s.sendall(_head("victim", key, len(body)) + body)
            raw = _read_answer(s, timeout=30)
        assert http.status_of(raw) == 200, raw[:300]
    finally:
        for s in attackers:
            s.close()


def test_upload_slots_are_shared_per_address_and_per_room(server):
    """Finding 1: an address holds at most two of the four slots, a room one; another address
    still uploads while the first holds its two. Refusals are 503 busy with Retry-After, sent
    before the body."""
    keys = {name: _key(server, name) for name in ("s1", "s2", "s3", "s4")}
    size = 40_000  # an upload (past 16 KiB)
    held = []
    try:
        for name in ("s1", "s2"):
            s = _connect(server)
            s.sendall(_head(name, keys[name], size) + b"A\n")  # trickles: stays in flight
            held.append(s)
        # A third from the same address, to another room: no slot left for this address.
        with _connect(server) as s:
            s.sendall(_head("s3", keys["s3"], size))
            raw = _read_answer(s, timeout=3)
        assert http.status_of(raw) == 503 and b'"busy"' in raw and b"retry-after: " in raw.lower(), raw[:400]
        # Another address, to a room being uploaded to: one per room.
        with _connect(server, source="127.0.0.2") as s:
            s.sendall(_head("s1", keys["s1"], size))
            raw = _read_answer(s, timeout=3)
        assert http.status_of(raw) == 503 and b'"busy"' in raw, raw[:400]
        # Another address, another room: served while the first address holds its two.
        body = _list(size // 12)
        with _connect(server, source="127.0.0.2") as s:
            s.sendall(_head("s4", keys["s4"], len(body)) + body)
            raw = _read_answer(s, timeout=10)
        assert http.status_of(raw) == 200, raw[:300]
        # One of the first two completes: its address may upload again.
        first = held.pop(0)
        first.sendall(b"B\n" * ((size - 2) // 2))
        assert http.status_of(_read_answer(first, timeout=10)) == 200
        first.close()
        body = _list(size // 12)
        with _connect(server) as s:
            s.sendall(_head("s3", keys["s3"], len(body)) + body)
            assert http.status_of(_read_answer(s, timeout=10)) == 200
    finally:
        for s in held:
            s.close()


def test_a_slow_honest_upload_gets_through_and_a_trickle_does_not(server):
    """Finding 5: a 1 MB body at about 160 KiB/s takes about 6.5 s, past the old 5 s deadline for
    a whole request (408 before), and is kept; a byte every half second is cut off (408) within
    the pace's first window, not held for minutes."""
    key = _key(server, "slow")
    body = _list(80_000)  # about 1 MB
    chunk, pause = 16 * 1024, 0.1
    with _connect(server) as s:
        s.sendall(_head("slow", key, len(body)))
        t0 = time.monotonic()
        for i in range(0, len(body), chunk):
            s.sendall(body[i:i + chunk])
            time.sleep(pause)  # pacing the sender, not waiting for the server
        assert time.monotonic() - t0 > 5.5
        raw = _read_answer(s, timeout=30)
    assert http.status_of(raw) == 200, raw[:300]
    assert room_snapshot(server, "slow")["entrants"] == 80_000

    with _connect(server) as s:
        s.sendall(_head("slow", key, BIG) + b"A")
        t0, raw = time.monotonic(), b""
        s.settimeout(0.5)
        while time.monotonic() - t0 < 15 and not raw:
            try:
                s.sendall(b"A")
                raw = s.recv(4096)
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        elapsed = time.monotonic() - t0
    assert http.status_of(raw) == 408, raw[:300]
    assert 4 < elapsed < 8, elapsed
