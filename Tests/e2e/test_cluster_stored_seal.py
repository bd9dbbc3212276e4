"""What nodes keep in Redis is sealed with the cluster's secret (issue 36, finding 8;
docs/SCALING.md "Security notes"): with `--cluster-secret-file`, a draw's record, its history
line, the room's view and the escrow carry a MAC bound to their key (and field), and a value a
writer to Redis forged is refused, counted and never served. Before, editing
`live-draw:draw:<id>` made every node, the one that ran the draw included, serve a forged winner
with `"verified": true`; editing the view made new viewers' snapshots show it; and the escrow
held the running draw's seed in clear.

Two real nodes with the same secret file on one real redis-server over loopback; every wait is
bounded.
"""
import asyncio
import os
import socket

from helpers import http
from helpers.redis import launch_node, wait_until
from helpers.rooms import put_entrants, put_settings, room_snapshot
from helpers.wsclient import WSClient, run

NAMES = [f"Entrant-{i:03d}" for i in range(1, 41)]
FORGED = "Mallory-99"  # as long as every name, so a record's list offset stays right


def _redis(redis, *args) -> object:
    """One command with binary-safe arguments: a bulk reply's bytes (None for nil), an
    integer, or a status line."""
    out = b"*%d\r\n" % len(args)
    for a in args:
        a = a.encode() if isinstance(a, str) else a
        out += b"$%d\r\n%s\r\n" % (len(a), a)
    with socket.create_connection(("127.0.0.1", redis.port), timeout=2) as s:
        s.sendall(out)
        data = b""
        while b"\r\n" not in data:
            data += s.recv(65536)
        head, _, rest = data.partition(b"\r\n")
        if head.startswith(b"$"):
            size = int(head[1:])
            if size < 0:
                return None
            while len(rest) < size + 2:
                rest += s.recv(65536)
            return rest[:size]
        if head.startswith(b":"):
            return int(head[1:])
        assert not head.startswith(b"-"), head
        return head.decode()



def _secret(tmp_path):
    secret = tmp_path / "cluster.secret"
    secret.write_text(os.urandom(32).hex() + "\n")
    secret.chmod(0o600)
    return str(secret)


def _finished_draw(launch, redis, tmp_path) -> dict:
    """Two nodes with the same secret; a draw through A, its escrow as Redis held it while it ran,
    then its record once it ended and B serves it too (from Redis)."""
    secret = _secret(tmp_path)
    a, b = (launch_node(launch, redis, cluster_secret_file=secret) for _ in range(2))
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]
    assert put_entrants(a, room, key, "\n".join(NAMES)).status == 200
    assert put_settings(a, room, key, {"winners": 2, "rounds": 12, "intervalMs": 150, "countdownMs": 0}).status == 200

    assert http.start_draw(a, room, key).status == 202
    escrow_key = f"live-draw:escrow:{room}"
    wait_until(lambda: _redis(redis, "HGET", escrow_key, "seed") is not None, 10, "the escrow's deposit")
    escrowed = _redis(redis, "HGET", escrow_key, "seed")
    draw_id = _redis(redis, "HGET", escrow_key, "drawId").decode()

    def finished():
        status, record = http.api(a, "GET", f"/api/draws/{draw_id}")
        return status == 200 and record["status"] == "finished" and record
    wait_until(finished, 20, "the draw's end")
    record = finished()
    winner = record["winnerPicks"][0]["name"]
    assert winner in NAMES
    wait_until(lambda: http.api(b, "GET", f"/api/draws/{draw_id}")[0] == 200, 10, "B's shared record")
    return dict(a=a, b=b, room=room, draw_id=draw_id, winner=winner, escrowed=escrowed, seed=record["seed"])


def _forge(redis, key: str, field, winner: str) -> None:
    """The value at `key` (a hash's `field`) as stored, the winner's name changed."""
    if field is None:
        stored = _redis(redis, "GET", key)
        assert stored is not None and winner.encode() in stored
        assert _redis(redis, "SET", key, stored.replace(winner.encode(), FORGED.encode())) == "+OK"
    else:
        stored = _redis(redis, "HGET", key, field)
        assert stored is not None and winner.encode() in stored, (key, field, stored)
        assert _redis(redis, "HSET", key, field, stored.replace(winner.encode(), FORGED.encode())) == 0


def _refusals_logged(*nodes) -> None:
    """Refusals are logged (rate-limited), never with the value."""
    lines = [l for node in nodes for l in node.lines if "does not carry the cluster's seal" in l]
    assert lines and not any(FORGED in l for l in lines), lines


def test_the_escrowed_seed_is_not_in_redis_in_clear(launch, redis, tmp_path):
    draw = _finished_draw(launch, redis, tmp_path)
    seed, escrowed = draw["seed"], draw["escrowed"]
    assert len(seed) == 64
    assert escrowed != seed.encode() and seed.encode() not in escrowed and seed.upper().encode() not in escrowed
    assert bytes.fromhex(seed) not in escrowed


def test_a_forged_record_or_history_line_in_redis_is_served_by_no_node(launch, redis, tmp_path):
    draw = _finished_draw(launch, redis, tmp_path)
    a, b, room, draw_id, winner = draw["a"], draw["b"], draw["room"], draw["draw_id"], draw["winner"]

    # The record forged in its stored format: a winner's name changed. Neither node serves it,
    # the one that ran the draw included: B, which only has Redis' copy, reads it as unavailable
    # (503); A may answer from its own store, with the true winner.
    _forge(redis, f"live-draw:draw:{draw_id}", None, winner)
    for node in (a, b):
        resp = http.request(node, "GET", f"/api/draws/{draw_id}")
        assert FORGED.encode() not in resp.body, (resp.status, resp.body[:300])
        if node is b or resp.status != 200:
            assert resp.status == 503, (resp.status, resp.body[:300])
        else:
            assert f'"name":"{winner}"'.encode() in resp.body
    assert http.metric(b, 'livedraw_cluster_stored_values_refused_total{kind="record"}') >= 1

    # The history line forged too: the listing leaves it out rather than show it.
    _forge(redis, f"live-draw:history-lines:{room}", draw_id, winner)
    for node in (a, b):
        status, page = http.api(node, "GET", f"/api/rooms/{room}/draws")
        assert status == 200 and FORGED not in str(page), page
        assert draw_id not in [d["drawId"] for d in page["draws"]], page
    _refusals_logged(a, b)


def test_a_forged_view_in_redis_reaches_no_new_viewer(launch, redis, tmp_path):
    draw = _finished_draw(launch, redis, tmp_path)
    b, room, winner = draw["b"], draw["room"], draw["winner"]

    # The view's last result forged: B, which has shown the room to nobody, reads the view from
    # Redis for its first viewer and for GET /api/rooms/ROOM; neither shows the forged winner.
    _forge(redis, f"live-draw:view:{room}", "lastResult", winner)

    async def viewer_snapshot():
        viewer = await WSClient.open(b.ws_url(room), "fresh")
        try:
            return (await viewer.expect("snapshot")).raw
        finally:
            await viewer.close()
    snapshot = run(viewer_snapshot(), timeout=20)
    assert FORGED not in snapshot, snapshot[:400]
    assert FORGED not in str(room_snapshot(b, room))
    assert http.metric(b, 'livedraw_cluster_stored_values_refused_total{kind="view"}') >= 1
    _refusals_logged(b)
