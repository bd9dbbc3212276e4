"""Host-key leak detection for everything the suite receives.

PROTOCOL.md section 5: a host key "is never broadcast, never in a snapshot". The only place it may
appear is the `201` answer of `POST /api/rooms` (and the lobby's in the startup log). Every
WebSocket message and every other HTTP body the suite reads goes through `check`, so a leak is
caught by whichever test happens to provoke it, not only by a dedicated one.

Two nets: the exact keys the suite knows (the lobby key and every key a test created), and any
quoted 48-hex string, which is the shape of a host key (drawIds have 32 hex characters, seeds and
hashes 64, so nothing legitimate has 48).
"""
import re
import threading

_KEY_SHAPE = re.compile(r'"[0-9a-fA-F]{48}"')
_HEX_RUN = re.compile(r'[0-9a-fA-F]{48,}')

_lock = threading.Lock()
_known: set[str] = set()
_violations: list[str] = []


def register(key: str) -> None:
    """Remember a host key the suite has seen legitimately (startup log, room creation)."""
    with _lock:
        _known.add(key)


def check(text: str, source: str) -> None:
    """Record and raise if `text` (a received message or body) carries a host key."""
    problems = []
    with _lock:
        known = list(_known)
    # A known key can only sit inside a run of 48 or more hex digits: find those once, then look
    # for the keys in them. Searching the whole text per key (lowered each time) cost a second
    # per 2 MB `started` once a full run had registered hundreds of keys, and that time showed
    # up as late delivery in test_slow_client (a CI run failed on it).
    runs = [run.lower() for run in _HEX_RUN.findall(text)]
    for key in known:
        if any(key.lower() in run for run in runs):
            problems.append(f"known host key {key[:8]}… appears in {source}")
    if _KEY_SHAPE.search(text):
        problems.append(f"a 48-hex string (host-key shaped) appears in {source}")
    if '"hostKey"' in text:
        problems.append(f'a "hostKey" field appears in {source}')
    if problems:
        excerpt = text if len(text) < 400 else text[:400] + "…"
        with _lock:
            _violations.extend(f"{p}: {excerpt}" for p in problems)
        raise AssertionError("; ".join(problems) + f": {excerpt}")


def take_violations() -> list[str]:
    """Return and clear the leaks recorded so far (the autouse fixture asserts it is empty)."""
    with _lock:
        out = list(_violations)
        _violations.clear()
    return out
