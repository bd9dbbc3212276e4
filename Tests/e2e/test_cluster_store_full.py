"""Redis full is an answer, not a collapse (issue 44, docs/SCALING.md "Faults" and "Deployment").

An evicting Redis could drop a lease, a fence or an escrow under a running draw, so a node
refuses to start on one, with one plain line and a non-zero exit. With `noeviction` and
`maxmemory` reached, Redis refuses writes with `-OOM`: a start is answered 503 `cluster_full`
(not `cluster_unavailable`: Redis is there, it is full), `/metrics` and the log say so, a running
draw holds and goes on once memory is freed, and nothing of it is left half-written. Each test
fills a real redis-server of its own with filler keys until it answers `-OOM`.
"""
import asyncio
import subprocess
import time

import pytest

from helpers import http
from helpers.cli import LIVE_DRAW_BIN
from helpers.redis import RedisServer, history_says, launch_node, start_when_watched, wait_until
from helpers.wsclient import WSClient, run

FULL = "livedraw_cluster_store_full"
REFUSALS = "livedraw_cluster_store_full_refusals_total"
FULL_LINE = "shared store (Redis) is full"


@pytest.fixture
def evicting_redis(request):
    server = RedisServer(args=request.param)
    yield server
    server.close()


@pytest.mark.parametrize("evicting_redis, policy", [
    (["--maxmemory-policy", "allkeys-lru"], "allkeys-lru"),
    (["--maxmemory-policy", "volatile-ttl"], "volatile-ttl"),
    # Managed Redis often denies CONFIG: the policy is then read from INFO memory.
    (["--maxmemory-policy", "allkeys-lru", "--rename-command", "CONFIG", ""], "allkeys-lru"),
], indirect=["evicting_redis"], ids=["allkeys-lru", "volatile-ttl", "allkeys-lru-without-CONFIG"])
def test_a_node_refuses_to_start_on_an_evicting_redis(evicting_redis, policy, tmp_path):
    try:
        result = subprocess.run([LIVE_DRAW_BIN, "--data-dir", str(tmp_path), "--host", "127.0.0.1", "--port", "0",
                                 "--redis-url", evicting_redis.url],
                                capture_output=True, text=True, timeout=15, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as started:
        pytest.fail(f"the node started on a Redis with maxmemory-policy {policy}: {started.stdout!r}")
    lines = [l for l in (result.stdout + result.stderr).splitlines() if "error" in l.lower()]
    assert result.returncode != 0
    assert len(lines) == 1, lines
    assert policy in lines[0] and "set maxmemory-policy noeviction" in lines[0], lines[0]
    assert "the fence and the leases cannot survive eviction" in lines[0], lines[0]


def _full_lines(node) -> list:
    return [l for l in node.lines if FULL_LINE in l]


def test_a_full_redis_answers_starts_cluster_full_until_memory_is_freed(launch, redis):
    node = launch_node(launch, redis, round_interval_ms=50, rounds=3)
    created = http.created_room(node)
    room, key = created["room"], created["hostKey"]
    assert http.metric(node, FULL) == 0
    filler = redis.fill()

    refused = http.start_draw(node, room, key)
    assert refused.status == 503 and refused.error_code() == "cluster_full", refused.body
    assert "full" in refused.json["error"]["message"], refused.body

    async def ws_start():
        host = await WSClient.open(node.ws_url(room), name="host")
        try:
            await host.expect("snapshot")
            await host.send_json({"type": "start", "hostKey": key})
            return (await host.expect("error", timeout=10)).data
        finally:
            await host.close()

    assert run(ws_start(), timeout=30)["code"] == "cluster_full"
    assert http.metric(node, FULL) == 1
    assert http.metric(node, REFUSALS) >= 2
    assert len(_full_lines(node)) == 1, _full_lines(node)

    redis.free(filler)
    started = http.start_draw(node, room, key)
    assert started.status == 202, started.body
    assert http.metric(node, FULL) == 0
    wait_until(lambda: [d["status"] for d in http.api(node, "GET", f"/api/rooms/{room}/draws")[1].get("draws", [])]
               == ["finished"], 15, "the draw after the memory was freed to finish")
    # One episode, one line: the refused starts above did not each log it.
    assert len(_full_lines(node)) == 1, _full_lines(node)


def test_a_draw_running_when_redis_fills_holds_then_finishes_once_memory_is_freed(launch, redis):
    node = launch_node(launch, redis, round_interval_ms=150, rounds=20)
    created = http.created_room(node)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        viewer = await WSClient.open(node.ws_url(room), name="viewer")
        try:
            await start_when_watched(redis, room, [viewer], 1, node, key)
            await viewer.wait_for(lambda m: m.type == "round" and m["round"] == 3, 10)
            filler = await asyncio.to_thread(redis.fill)
            # The step in flight is refused, and retried: the draw holds (issue 36: nothing is
            # shown that the cluster does not hold).
            await asyncio.to_thread(wait_until, lambda: http.metric(node, FULL) == 1, 10, "the store seen full")
            await viewer.barrier()  # every message sent so far is in the log
            shown = max(m["round"] for m in viewer.log if m.type == "round")
            refusals = http.metric(node, REFUSALS)
            await asyncio.to_thread(wait_until, lambda: http.metric(node, REFUSALS) >= refusals + 5, 10,
                                    "the held step retried")
            await viewer.barrier()
            held = [m["round"] for m in viewer.log if m.type == "round" and m["round"] > shown]
            assert held == [], f"rounds {held} were shown while Redis refused every write"
            await asyncio.to_thread(redis.free, filler)
            end = await viewer.collect_draw(timeout=30)
            return end, list(viewer.log)
        finally:
            await viewer.close()

    end, log = run(scenario(), timeout=90)
    assert end[-1].type == "finished", end[-1].raw
    rounds = [m["round"] for m in log if m.type == "round"]
    assert rounds == list(range(1, 21)), f"the viewer saw rounds {rounds}"
    draw_id = end[-1]["drawId"]
    wait_until(lambda: history_says(node, room, draw_id, "finished"), 15, "the history to say finished")
    # Nothing half-written: the draw's record is there with its one history line (above), and
    # its escrow (a draw's seed while it runs) is gone.
    assert redis.command("EXISTS", f"live-draw:draw:{draw_id}") == ":1"
    assert redis.command("EXISTS", f"live-draw:escrow:{room}") == ":0"
    assert http.metric(node, FULL) == 0
    assert len(_full_lines(node)) == 1, _full_lines(node)


def test_every_host_write_on_a_full_redis_answers_cluster_full_and_changes_nothing(launch, redis):
    """Not only starts: a new room, a list, settings, a new key and a schedule on a full Redis
    each answer 503 `cluster_full` (Redis is there, it is full), and once memory is freed the room
    is as it was and its key still works. Deleting a room frees memory, so a full Redis takes it."""
    from helpers.rooms import put_entrants, put_settings
    node = launch_node(launch, redis, round_interval_ms=50, rounds=3)
    created = http.created_room(node)
    room, key = created["room"], created["hostKey"]
    assert put_entrants(node, room, key, "Ann\nBob").status == 200
    filler = redis.fill()
    soon = {"at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 600))}
    writes = {
        "new room": lambda: http.create_room(node),
        "list": lambda: put_entrants(node, room, key, "Cy\nDee\nEve"),
        "settings": lambda: put_settings(node, room, key, {"rounds": 5}),
        "key": lambda: http.request(node, "POST", f"/api/rooms/{room}/key", may_carry_key=True,
                                    headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"}),
        "schedule": lambda: http.request(node, "PUT", f"/api/rooms/{room}/schedule", body=soon,
                                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"}),
    }
    for what, write in writes.items():
        resp = write()
        assert resp.status == 503 and resp.error_code() == "cluster_full", (what, resp.status, resp.body)
    assert http.metric(node, FULL) == 1
    redis.free(filler)
    snap = http.api(node, "GET", f"/api/rooms/{room}")[1]
    assert snap["entrants"] == 2 and snap["settings"]["rounds"] != 5, snap
    assert put_settings(node, room, key, {"rounds": 5}).status == 200, "the key is still the room's"
    redis.fill()
    assert http.request(node, "DELETE", f"/api/rooms/{room}", headers={"Authorization": f"Bearer {key}"}).status == 204
    assert http.api(node, "GET", f"/api/rooms/{room}")[0] == 404
