"""Protocol facts for the Python test clients, written once (docs/PROTOCOL.md).

Tests/tools/test_protocol_facts.py checks them against Tests/vectors/protocol.json, which the
server and the page are tested against too, so the languages cannot drift apart.
"""
import re

# What the page and new clients offer (v2: the entrants list comes over HTTP, issue 15), and the
# older version the server still serves, to clients that offer it or no subprotocol at all.
SUBPROTOCOL = "live-draw.v2"
SUBPROTOCOL_V1 = "live-draw.v1"
LOBBY = "lobby"
ROOM_RE = re.compile(r"[a-z0-9-]{1,64}")


def is_room_name(name: str) -> bool:
    """`[a-z0-9-]{1,64}`, the whole string (no trailing newline slips through)."""
    return ROOM_RE.fullmatch(name) is not None
