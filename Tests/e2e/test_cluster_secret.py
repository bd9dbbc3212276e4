"""Authenticated envelopes (issue 27, finding 5; docs/SCALING.md "Security notes"): with
`--cluster-secret-file`, every event between nodes carries an HMAC-SHA256 that receivers check.
Forged envelopes published straight to a room's Redis channel (as anyone who can reach Redis
could) reach no viewer and close none: a forged `deleted` (without the secret it closed viewers
with 4404), a forged `round` with invalid UTF-8, one with a made-up MAC. Real draws through either
node still reach the viewers of both. Without a secret, an envelope that does not decode (invalid
UTF-8) is dropped too.
"""
import asyncio
import json
import os

from helpers import http
from helpers.redis import launch_node, publish_raw, start_when_watched
from helpers.wsclient import close_all, open_many, run

ROUNDS = ["loading", "started"] + ["round"] * 10 + ["finished"]


def _envelope(kind: str, wire: bytes, **header) -> bytes:
    head = {"v": 1, "node": "node-forged", "kind": kind, "plannedAt": 1, "sentAt": 1,
            "wire": len(wire), "view": 0, **header}
    return json.dumps(head, separators=(",", ":")).encode() + b"\n" + wire


def _forgeries(room: str) -> list:
    deleted = _envelope("deleted", b'{"type":"error","code":"room_deleted","message":"forged"}')
    bad_round = _envelope("round", b'{"type":"round","round":1,"name":"\xff\xfe"}', drawId="forged", index=0)
    return [deleted, bad_round, deleted + os.urandom(32)]


def _dropped(node, reason: str) -> int:
    return int(http.metric(node, f'livedraw_cluster_events_dropped_total{{reason="{reason}"}}'))


def _forge_then_draw_twice(a, b, redis, forgeries):
    """Viewers on both nodes; the forgeries published to the room's channel; then a draw through
    B and one through A: each viewer sees both draws whole and nothing else."""
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        clients = await open_many(a.ws_url(room), 2, prefix="a") + await open_many(b.ws_url(room), 2, prefix="b")
        try:
            await start_when_watched(redis, room, clients, 2)
            for payload in forgeries(room):
                assert publish_raw(redis, room, payload) == 2
            draws = []
            for starter in (b, a):
                resp = await asyncio.to_thread(http.start_draw, starter, room, key)
                assert resp.status == 202, resp.body
                draws.append(await asyncio.gather(*(c.collect_draw(timeout=20) for c in clients)))
                await asyncio.gather(*(c.barrier() for c in clients))
            return draws
        finally:
            await close_all(clients)

    for draw in run(scenario(), timeout=60):
        assert [m.type for m in draw[0]] == ROUNDS, [m.raw for m in draw[0]]
        for other in draw[1:]:
            assert [m.raw for m in other] == [m.raw for m in draw[0]]
    return room


def test_forged_envelopes_reach_no_viewer_and_real_draws_reach_both_nodes(launch, redis, tmp_path):
    secret = tmp_path / "cluster.secret"
    secret.write_text(os.urandom(32).hex() + "\n")
    secret.chmod(0o600)
    a, b = (launch_node(launch, redis, round_interval_ms=100, cluster_secret_file=str(secret)) for _ in range(2))

    _forge_then_draw_twice(a, b, redis, _forgeries)

    for node in (a, b):
        assert _dropped(node, "unauthenticated") == 3
        # Logged once for the three (at most once per 10 s), never with the payload.
        lines = [l for l in node.lines if "dropped a message on a room's cluster channel" in l]
        assert len(lines) == 1, lines
        assert "forged" not in lines[0]


def test_without_a_secret_an_envelope_that_does_not_decode_is_dropped(nodes, redis):
    a, b = nodes
    bad_round = lambda room: [_forgeries(room)[1]]
    _forge_then_draw_twice(a, b, redis, bad_round)
    for node in (a, b):
        assert _dropped(node, "malformed") == 1
