"""The generators themselves, without a server: deterministic, guarded, and covering what issue 11
asks the fuzzer to throw (so a generator change cannot quietly stop producing a whole class).

Cheap (no sockets): the first 1,000 cases of a few seeds, about what one default run plays.
"""
from functools import lru_cache

import pytest

from fuzzkit import guards, httpgen, wsframes, wsgen
from fuzzkit.case import Abort, Pause
from fuzzkit.wsgen import RESERVED_OPCODES

SEEDS = range(1, 5)
CASES = 1000  # 25 batches of 40: one default run plays about this many
NONE = frozenset()


@lru_cache(maxsize=None)
def _cases(gen, seed, active=NONE, n=CASES):
    return tuple(gen(seed, i // 40, i % 40, active) for i in range(n))


@lru_cache(maxsize=None)
def _walked(seed):
    """Seed `seed`'s WebSocket cases with their frames, walked once for every feature test."""
    return [(c, _frames(c)) for c in _cases(wsgen.generate, seed)]


def _frames(case):
    """(b0, b1, declared, unmasked payload or None if cut short) of every frame walked."""
    data = case.sent_bytes()
    out = []
    for at, _, declared in wsframes.frames(data):
        body = wsframes.payload(data, at, declared) if declared <= len(data) else None
        out.append((data[at], data[at + 1], declared, body if body is not None and len(body) == declared else None))
    return out


def _close_of(frames):
    return [(int.from_bytes(p[:2], "big"), p[2:]) for b0, _, n, p in frames if b0 & 0x0F == 8 and p and len(p) >= 2]


def _not_utf8(b: bytes) -> bool:
    try:
        b.decode("utf-8")
        return False
    except UnicodeDecodeError:
        return True


WS_FEATURES = {
    "unmasked frame": lambda c, f: any(not b1 & 0x80 for _, b1, _, _ in f),
    "RSV bits": lambda c, f: any(b0 & 0x70 for b0, _, _, _ in f),
    "reserved opcode": lambda c, f: any(b0 & 0x0F in RESERVED_OPCODES for b0, _, _, _ in f),
    "continuation without start": lambda c, f: bool(f) and f[0][0] & 0x0F == 0,
    "control frame between fragments": lambda c, f: len(f) > 2 and not f[0][0] & 0x80 and f[0][0] & 0x0F in (1, 2)
    and any(b0 & 0x08 for b0, _, _, _ in f[1:]),
    "64-bit length 2**63-1": lambda c, f: any(n == (1 << 63) - 1 for _, _, n, _ in f),
    "64-bit length with bit 63 set": lambda c, f: any(n >= 1 << 63 for _, _, n, _ in f),
    "non-minimal length form": lambda c, f: any(b1 & 0x7F == 127 and n < 65536 for _, b1, n, _ in f),
    "close code a client may not send": lambda c, f: any(code in (1005, 1006, 1015, 5000, 65535, 0) for code, _ in _close_of(f)),
    "close reason not UTF-8": lambda c, f: any(_not_utf8(r) for _, r in _close_of(f)),
    "ping over 125 bytes": lambda c, f: any(b0 & 0x0F == 9 and n > 125 for b0, _, n, _ in f),
    "fragmented control frame": lambda c, f: any(b0 & 0x08 and not b0 & 0x80 for b0, _, _, _ in f),
    "slow send": lambda c, f: any(isinstance(s, Pause) for s in c.steps),
    "early close": lambda c, f: any(isinstance(s, Abort) for s in c.steps),
}


def _first_line(c):
    return c.sent_bytes().split(b"\n", 1)[0]


HTTP_FEATURES = {
    "method FOO": lambda c: _first_line(c).startswith(b"FOO "),
    "method TRACE": lambda c: _first_line(c).startswith(b"TRACE "),
    "method CONNECT": lambda c: _first_line(c).startswith(b"CONNECT "),
    "URL over 8 KiB": lambda c: len(_first_line(c)) > 8192,
    "header over 8 KiB": lambda c: any(len(h) > 8192 for h in c.sent_bytes().split(b"\r\n")[1:8]),
    "hundreds of headers": lambda c: c.sent_bytes().count(b"\r\nX-H") >= 100,
    "Upgrade: h2c": lambda c: b"Upgrade: h2c" in c.sent_bytes(),
    "negative Content-Length": lambda c: b"Content-Length: -1\r" in c.sent_bytes(),
    "huge Content-Length": lambda c: b"Content-Length: 99999999999999999999999999\r" in c.sent_bytes(),
    "non-numeric Content-Length": lambda c: b"Content-Length: abc\r" in c.sent_bytes(),
    "chunked body": lambda c: b"Transfer-Encoding: chunked" in c.sent_bytes(),
    "slow send": lambda c: any(isinstance(s, Pause) for s in c.steps),
    "early close": lambda c: any(isinstance(s, Abort) for s in c.steps),
}


def test_a_case_is_the_same_bytes_every_time():
    for gen in (wsgen.generate, httpgen.generate):
        for i in range(50):
            a, b = gen(7, 3, i, NONE), gen(7, 3, i, NONE)
            assert a.steps == b.steps and a.path == b.path, a.case_id


@pytest.mark.parametrize("name", WS_FEATURES)
def test_websocket_cases_cover(name):
    hits = [c for c, frames in _walked(1) if WS_FEATURES[name](c, frames)]
    assert hits, f"no case in the first {CASES} of seed 1 has: {name}"


@pytest.mark.parametrize("name", HTTP_FEATURES)
def test_http_cases_cover(name):
    hits = [c for c in _cases(httpgen.generate, 1) if HTTP_FEATURES[name](c)]
    assert hits, f"no case in the first {CASES} of seed 1 has: {name}"


def test_unguarded_every_seed_reaches_the_known_bugs_within_one_run():
    """The fuzzer has teeth: each seed makes every guarded bug (guards.KNOWN_BUGS) within the
    cases of one default run. The proof against the real binary is in README.md (UNGUARDED)."""
    for seed in SEEDS:
        ws = [c.case_id for c in _cases(wsgen.generate, seed) if guards.has_overflow_pattern(c.sent_bytes())]
        assert ws, f"seed {seed}: no case has the continuation-length-overflow pattern"
        http = [c.case_id for c in _cases(httpgen.generate, seed) if guards.has_pipelined_body(c.sent_bytes())]
        assert http, f"seed {seed}: no case has the pipelined-body-spin pattern"


@pytest.mark.parametrize("gen,bug,has", [
    (wsgen.generate, "continuation-length-overflow", guards.has_overflow_pattern),
    (httpgen.generate, "pipelined-body-spin", guards.has_pipelined_body),
])
def test_guarded_no_case_has_the_bug_and_nothing_else_changes(gen, bug, has):
    active = guards.active(unguarded=False)
    if bug not in active:
        pytest.skip(f"the {bug} guard is off: its fix has landed")
    for seed in SEEDS:
        for plain, guarded in zip(_cases(gen, seed), _cases(gen, seed, active)):
            a, b = plain.sent_bytes(), guarded.sent_bytes()
            assert not has(b), guarded.describe()
            assert len(a) == len(b) and plain.template == guarded.template
            if a == b:
                continue
            changed = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
            assert len(changed) <= 16 * max(1, a.lower().count(b"content-length"), len(list(wsframes.frames(a)))), \
                "the guard changed more than length fields"
