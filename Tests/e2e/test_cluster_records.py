"""Cluster mode's records in Redis (issue 44): a draw's record references its entrant list by hash,
as SQLite's does, instead of holding the list, so the bytes Redis keeps per draw do not grow with
the list; `GET /api/draws/ID` and `/entrants` still answer the whole draw through every node.

Two real nodes on one real redis-server over loopback; every wait is bounded.
"""
import hashlib
import json

from helpers import http
from helpers.redis import history_says, wait_until
from helpers.rooms import put_entrants, put_settings, room_snapshot


def record_hash(node, draw_id: str) -> str:
    """The record's `entrantsHash`, as `node` answers it."""
    status, record = http.api(node, "GET", f"/api/draws/{draw_id}")
    assert status == 200, record
    return record["entrantsHash"]


def test_a_draws_record_in_redis_references_its_list_and_reads_back_whole(nodes, redis):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]
    names = "\n".join(f"Entrant {i:05d}" for i in range(5000))
    assert put_entrants(a, room, key, names).status == 200
    assert put_settings(a, room, key, {"winners": 3, "rounds": 10, "intervalMs": 60}).status == 200
    assert room_snapshot(b, room)["entrants"] == 5000

    assert http.start_draw(a, room, key).status == 202
    wait_until(lambda: (http.api(b, "GET", f"/api/rooms/{room}/draws")[1].get("draws") or [{}])[0].get("status")
               == "finished", 30, "the draw listed as finished on B")
    draw_id = http.api(b, "GET", f"/api/rooms/{room}/draws")[1]["draws"][0]["drawId"]
    assert history_says(b, room, draw_id, "finished")

    stored = redis.get(f"live-draw:draw:{draw_id}")
    assert stored is not None
    # The list is not in the record, only its hash: a few kilobytes for 3 winners and 10 rounds,
    # whatever the list's size.
    assert b'"entrants":[' not in stored and b"Entrant 02500" not in stored, stored[:300]
    assert stored.startswith(b"entrants %s " % record_hash(b, draw_id).encode()), stored[:100]
    assert len(stored) <= 8 * 1024, len(stored)

    # B did not run the draw: it answers from Redis, the list put back in by its hash.
    resp = http.request(b, "GET", f"/api/draws/{draw_id}")
    assert resp.status == 200, resp.body
    record = json.loads(resp.body)
    assert [p["name"] for p in record["entrants"]] == [f"Entrant {i:05d}" for i in range(5000)]
    assert record["status"] == "finished" and record["verified"] is True and len(record["winnerPicks"]) == 3
    listed = http.request(b, "GET", f"/api/draws/{draw_id}/entrants")
    assert listed.status == 200
    assert hashlib.sha256(listed.body).hexdigest() == record["entrantsHash"]
    # The record's list is the entrants endpoint's, byte for byte, where the record writes it.
    assert b'"entrants":' + listed.body + b',"warnings":' in resp.body
    assert http.request(a, "GET", f"/api/draws/{draw_id}").body == resp.body
