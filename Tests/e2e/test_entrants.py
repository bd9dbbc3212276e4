"""Big lists without big fan-out (issue 15): protocol v2's `started`, `finished` and snapshots carry
the entrants' count and hash, and GET /api/draws/ID/entrants serves the list once per draw
(immutable, ETag, 304). v1 clients (live-draw.v1, or no subprotocol) still get the list in their
messages. PROTOCOL.md sections 1, 2 and 5.6.
"""
import asyncio
import hashlib
import json
import subprocess
import sys

from helpers import contracts, draw, http
from helpers.cli import REPO
from helpers.protocol import SUBPROTOCOL, SUBPROTOCOL_V1
from helpers.seed import SEED_ENTRANTS
from helpers.wsclient import WSClient, close_all, run

V2 = (SUBPROTOCOL,)
TOOL = REPO / "tools" / "verify_draw.py"


def _hash(entrants) -> str:
    return hashlib.sha256(draw.verify_draw.canonical_entrants(entrants)).hexdigest()


def _entrants(server, draw_id, headers=None, method="GET"):
    """The endpoint's answer, checked against docs/openapi.yaml."""
    resp = http.request(server, method, f"/api/draws/{draw_id}/entrants", headers=headers)
    if resp.status != 304 and method == "GET":
        errors = contracts.response_errors(method, f"/api/draws/{draw_id}/entrants", resp.status,
                                           resp.headers.get("content-type", ""), resp.body)
        assert not errors, errors
    return resp


def _valid(message):
    errors = contracts.message_errors(message.data)
    assert not errors, errors


async def _draw_as_seen_by(server, room, key, versions):
    """One draw watched by one client per subprotocol offer in `versions`."""
    clients = [await WSClient.open(server.ws_url(room), name=str(v), subprotocols=v) for v in versions]
    try:
        for c in clients:
            await c.expect("snapshot")
        resp = await asyncio.to_thread(http.start_draw, server, room, key)
        assert resp.status == 202, resp.body
        return await asyncio.gather(*(c.collect_draw(timeout=15) for c in clients))
    finally:
        await close_all(clients)


def test_v2_sends_count_and_hash_and_the_endpoint_serves_the_list(server):
    v2, v1, none = run(_draw_as_seen_by(server, "lobby", server.lobby_key, [V2, (SUBPROTOCOL_V1,), None]))
    started = next(m for m in v2 if m.type == "started")
    finished = v2[-1]
    assert finished.type == "finished"
    for m in (started, finished):
        assert "entrants" not in m.data, f"v2 {m.type} carries the list"
        assert m["entrantCount"] == len(SEED_ENTRANTS) and m["entrantsHash"] == _hash(SEED_ENTRANTS)
        _valid(m)
    # A result names the entries its rounds picked, so the page can show them without the list.
    assert sorted(p["index"] for p in finished["picked"]) == sorted(set(finished["picks"]))
    assert all(SEED_ENTRANTS[p["index"]]["userId"] == p["userId"] for p in finished["picked"])

    resp = _entrants(server, started["drawId"])
    assert resp.status == 200, resp.body
    assert resp.headers["content-type"].startswith("application/json")
    assert resp.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert resp.headers["etag"] == f'"{started["entrantsHash"]}"'
    # Compact, canonical: the bytes themselves hash to the draw's entrantsHash.
    assert hashlib.sha256(resp.body).hexdigest() == started["entrantsHash"]
    assert resp.json == SEED_ENTRANTS
    draw.assert_verifies({**finished.data, "entrants": resp.json}, {**started.data, "entrants": resp.json},
                         [m.data for m in v2 if m.type == "round"])

    # v1 (offered, or no offer at all): the same draw with the list in started and finished.
    for seq in (v1, none):
        s1, f1 = next(m for m in seq if m.type == "started"), seq[-1]
        assert s1["entrants"] == SEED_ENTRANTS and f1["entrants"] == SEED_ENTRANTS
        assert s1["drawId"] == started["drawId"] and f1["seed"] == finished["seed"]
        draw.assert_verifies(f1.data, s1.data, [m.data for m in seq if m.type == "round"])
    # Rounds are the same bytes in both versions.
    assert [m.raw for m in v2 if m.type == "round"] == [m.raw for m in v1 if m.type == "round"]


def test_etag_304_head_and_unknown_draws(server):
    (seq,) = run(_draw_as_seen_by(server, "lobby", server.lobby_key, [V2]))
    draw_id, etag = seq[-1]["drawId"], f'"{seq[-1]["entrantsHash"]}"'
    for tag in (etag, f"W/{etag}", f'"nope", {etag}', "*"):
        resp = _entrants(server, draw_id, {"If-None-Match": tag})
        assert resp.status == 304 and resp.body == b"", (tag, resp.status)
        assert resp.headers["etag"] == etag and "immutable" in resp.headers["cache-control"]
    assert _entrants(server, draw_id, {"If-None-Match": '"other"'}).status == 200
    head = _entrants(server, draw_id, method="HEAD")
    assert head.status == 200 and head.body == b"" and int(head.headers["content-length"]) > 2

    for bad in ("0" * 32, "not-an-id", "0" * 31 + "G"):
        resp = _entrants(server, bad)
        assert resp.status == 404 and resp.error_code() == "unknown_draw", (bad, resp.body)
    assert http.request(server, "POST", f"/api/draws/{draw_id}/entrants",
                        headers={"Content-Type": "application/json"}).status == 405


def test_a_late_joiners_snapshot_has_the_count_not_the_list(launch):
    server = launch(round_interval_ms=400)

    async def scenario():
        first = await WSClient.open(server.ws_url("lobby"), subprotocols=V2)
        late = old = None
        try:
            await first.expect("snapshot")
            assert (await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)).status == 202
            await first.wait_for(lambda m: m.type == "round" and m["round"] == 2, 10)
            late = await WSClient.open(server.ws_url("lobby"), subprotocols=V2)
            old = await WSClient.open(server.ws_url("lobby"), subprotocols=(SUBPROTOCOL_V1,))
            return await late.expect("snapshot"), await old.expect("snapshot")
        finally:
            await close_all([c for c in (first, late, old) if c])

    snap, snap_v1 = run(scenario(), timeout=40)
    assert snap["protocol"] == 2 and snap["draw"]["phase"] == "running"
    assert "entrants" not in snap["draw"] and snap["draw"]["entrantCount"] == len(SEED_ENTRANTS)
    assert snap["draw"]["entrantsHash"] == _hash(SEED_ENTRANTS)
    _valid(snap)
    assert snap_v1["protocol"] == 1 and snap_v1["draw"]["entrants"] == SEED_ENTRANTS
    # While it runs, the list is served from memory already.
    resp = _entrants(server, snap["draw"]["drawId"])
    assert resp.status == 200 and resp.json == SEED_ENTRANTS
    # The HTTP snapshot is v2 too.
    status, body = http.api(server, "GET", "/api/rooms/lobby")
    assert status == 200 and body["protocol"] == 2 and "entrants" not in (body["draw"] or {})


def test_verify_draw_py_fetches_the_entrants_and_checks_their_hash(launch):
    server = launch()
    (seq,) = run(_draw_as_seen_by(server, "lobby", server.lobby_key, [V2]))
    finished = dict(seq[-1].data)
    del finished["type"]

    def tool(*args, stdin=None):
        return subprocess.run([sys.executable, str(TOOL), *args], input=stdin, capture_output=True, text=True, timeout=30)

    r = tool("--server", server.base_url, "-", stdin=json.dumps(finished))
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["entrantsHashOk"] is True
    # From the draw id alone: the record, then the list.
    r = tool("--server", server.base_url, "--draw", finished["drawId"])
    assert r.returncode == 0 and json.loads(r.stdout)["ok"], r.stdout + r.stderr
    # The room's snapshot (its lastResult), as README's example pipes it.
    room = http.request(server, "GET", "/api/rooms/lobby").body.decode()
    assert tool("--server", server.base_url, "-", stdin=room).returncode == 0
    # Without a server there is no list: it says how to get one.
    r = tool("-", stdin=json.dumps(finished))
    assert r.returncode != 0 and "--server" in r.stderr
    # A result whose hash does not match the served list fails.
    forged = {**finished, "entrantsHash": "0" * 64}
    r = tool("--server", server.base_url, "-", stdin=json.dumps(forged))
    assert r.returncode == 1 and json.loads(r.stdout)["entrantsHashOk"] is False


def test_a_record_from_before_v2_still_verifies():
    """Tests/vectors' records carry their list, as every record did before v2: the tool needs no
    server for them."""
    vectors = json.loads((REPO / "Tests" / "vectors" / "fairness.json").read_text())
    records = vectors["records"]
    assert records
    for vector in records:
        r = subprocess.run([sys.executable, str(TOOL), "-"], input=json.dumps(vector["record"]), capture_output=True,
                           text=True, timeout=30)
        assert r.returncode == (0 if vector["verdict"]["ok"] else 1), (vector["name"], r.stdout, r.stderr)
        assert json.loads(r.stdout)["ok"] == vector["verdict"]["ok"], vector["name"]


def test_another_node_serves_the_entrants_of_a_draw_it_did_not_run(nodes):
    a, b = nodes
    created = http.created_room(a)
    (seq,) = run(_draw_as_seen_by(a, created["room"], created["hostKey"], [V2]))
    finished = seq[-1]
    # B never had a viewer in the room: the list comes from Redis, then from B's memory.
    for _ in range(2):
        resp = _entrants(b, finished["drawId"])
        assert resp.status == 200, resp.body
        assert resp.json == SEED_ENTRANTS and resp.headers["etag"] == f'"{finished["entrantsHash"]}"'
    assert _entrants(b, finished["drawId"], {"If-None-Match": resp.headers["etag"]}).status == 304
