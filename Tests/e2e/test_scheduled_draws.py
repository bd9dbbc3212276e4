"""Scheduled draws (issue 30) against the real server: the host schedules a room's draw a few
seconds ahead (PUT /api/rooms/ROOM/schedule); the commitment is public at once (snapshot,
GET /api/draws/ID) and the entrants frozen; the server starts the draw by itself on time, also
across a restart in between, with the committed seed and entrants; the host may cancel it (a
record with the seed revealed); bad requests get clear errors; in a two-node cluster it starts
exactly once, also when the node it was scheduled through died. docs/PROTOCOL.md §5.8.
"""
import asyncio
import hashlib
import json
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

from helpers import http
from helpers.cli import REPO
from helpers.draw import assert_verifies
from helpers.proxy import SilentDropProxy
from helpers.redis import launch_node, start_when_watched, wait_until
from helpers.rooms import put_entrants, put_settings, room_snapshot, wait_idle
from helpers.wsclient import WSClient, close_all, run

TOOL = [sys.executable, str(REPO / "tools" / "verify_draw.py")]
NAMES = ["Ann", "Ben", "Cleo", "Dev", "Eve"]


def _rfc3339(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, tz=timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _room(server, name: str) -> str:
    key = http.created_room(server, name)["hostKey"]
    assert put_entrants(server, name, key, "\n".join(NAMES)).status == 200
    resp = put_settings(server, name, key, {"rounds": 3, "intervalMs": 50, "countdownMs": 0})
    assert resp.status == 200, resp.body
    return key


def _schedule(server, room: str, key, at, content_type="application/json"):
    body = at if isinstance(at, (bytes, str)) and content_type != "application/json" else json.dumps({"at": at})
    headers = {"Content-Type": content_type}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    resp = http.request(server, "PUT", f"/api/rooms/{room}/schedule", body=body, headers=headers)
    return resp.status, json.loads(resp.body or b"null")


def _entrants_hash(entrants) -> str:
    canonical = json.dumps([{k: p[k] for k in ("userId", "name", "username", "regDate", "void")} for p in entrants],
                           separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _check_published(server, room: str, scheduled: dict) -> None:
    """The commitment is in the room's snapshot and the draw readable before it runs."""
    snap = room_snapshot(server, room)["scheduled"]
    for k in ("drawId", "at", "commitment", "entrantsHash"):
        assert snap[k] == scheduled[k], (k, snap, scheduled)
    status, record = http.api(server, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and record["status"] == "scheduled", record
    assert record["commitment"] == scheduled["commitment"] and "seed" not in record
    assert [p["name"] for p in record["entrants"]] == NAMES
    assert _entrants_hash(record["entrants"]) == scheduled["entrantsHash"]


async def _watch_scheduled(server, room: str, scheduled: dict) -> None:
    """A viewer joining now sees the schedule, then the draw start on time with the commitment."""
    viewer = await WSClient.open(server.ws_url(room), name="viewer")
    try:
        snap = await viewer.expect("snapshot")
        assert snap["scheduled"]["drawId"] == scheduled["drawId"]
        started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=15)
        late_ms = started["startedAt"] - scheduled["at"]
        assert 0 <= late_ms < 1500, f"started {late_ms:.0f} ms after its time"
        msgs = await viewer.collect_draw(timeout=10)
        finished = msgs[-1]
        assert finished.type == "finished", finished.raw
        assert finished["drawId"] == scheduled["drawId"]
        assert finished["commitment"] == scheduled["commitment"]
        assert hashlib.sha256(bytes.fromhex(finished["seed"])).hexdigest() == scheduled["commitment"]
        assert finished["entrantsHash"] == scheduled["entrantsHash"]
        assert [p["name"] for p in finished["entrants"]] == NAMES, "the list frozen at scheduling"
        assert_verifies(finished, started, [m for m in msgs if m.type == "round"])
    finally:
        await viewer.close()


def test_a_scheduled_draw_starts_on_time_with_what_was_committed(server):
    room = "sched-on-time"
    key = _room(server, room)
    status, scheduled = _schedule(server, room, key, _rfc3339(time.time() + 3))
    assert status == 201, scheduled
    assert scheduled["status"] == "scheduled" and scheduled["entrants"] == len(NAMES)
    _check_published(server, room, scheduled)
    # Later edits of the room's list do not change the scheduled draw.
    assert put_entrants(server, room, key, "Zed\nYan").status == 200
    assert room_snapshot(server, room)["scheduled"]["entrantsHash"] == scheduled["entrantsHash"]
    run(_watch_scheduled(server, room, scheduled))
    assert room_snapshot(server, room)["scheduled"] is None
    status, record = http.api(server, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and record["status"] == "finished" and record["verified"] is True, record


def test_a_scheduled_draw_survives_a_restart_and_starts_on_time(launch):
    srv = launch()
    room = "sched-restart"
    key = _room(srv, room)
    status, scheduled = _schedule(srv, room, key, _rfc3339(time.time() + 4))
    assert status == 201, scheduled
    srv.stop(sig=signal.SIGTERM)
    srv.restart()
    _check_published(srv, room, scheduled)
    run(_watch_scheduled(srv, room, scheduled))


def test_cancel_records_the_draw_cancelled_with_its_seed(server):
    room = "sched-cancel"
    key = _room(server, room)
    status, scheduled = _schedule(server, room, key, _rfc3339(time.time() + 60))
    assert status == 201, scheduled

    async def scenario():
        viewer = await WSClient.open(server.ws_url(room), name="viewer")
        try:
            assert (await viewer.expect("snapshot"))["scheduled"]["drawId"] == scheduled["drawId"]
            status, cancelled = http.api(server, "DELETE", f"/api/rooms/{room}/schedule", key=key)
            assert status == 200 and cancelled["status"] == "cancelled", cancelled
            assert hashlib.sha256(bytes.fromhex(cancelled["seed"])).hexdigest() == scheduled["commitment"]
            changed = await viewer.expect("room")
            assert changed["scheduled"] is None
        finally:
            await viewer.close()

    run(scenario())
    status, record = http.api(server, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200, record
    assert (record["status"], record["abortReason"], record["roundsShown"]) == ("aborted", "cancelled", 0), record
    assert record["commitment"] == scheduled["commitment"] and record["entrantsHash"] == scheduled["entrantsHash"]
    done = subprocess.run(TOOL + ["--server", server.base_url, "--draw", scheduled["drawId"]],
                          capture_output=True, text=True, timeout=60)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["ok"], report
    # Nothing left to cancel; a new one may be scheduled.
    status, body = http.api(server, "DELETE", f"/api/rooms/{room}/schedule", key=key)
    assert status == 404 and body["error"]["code"] == "not_scheduled", body
    assert wait_idle(server, room)["scheduled"] is None


def test_bad_schedules_get_clear_errors(server):
    room = "sched-bad"
    key = _room(server, room)
    now = time.time()
    cases = [
        ("tomorrow at noon", 400, "bad_time"),
        ("2030-02-30T10:00:00Z", 400, "bad_time"),
        ("2030-01-01 10:00:00", 400, "bad_time"),
        ("99999-01-01T00:00:00Z", 400, "bad_time"),
        (12345, 400, "bad_time"),
        (_rfc3339(now - 60), 422, "time_passed"),
        (_rfc3339(now + 0.5), 422, "too_soon"),
        (_rfc3339(now + 31 * 86400), 422, "too_far_ahead"),
        ("9999-12-31T23:59:59Z", 422, "too_far_ahead"),
    ]
    for at, want_status, code in cases:
        status, body = _schedule(server, room, key, at)
        assert (status, body["error"]["code"]) == (want_status, code), (at, status, body)
        assert body["error"]["message"]
    at = _rfc3339(now + 120)
    assert _schedule(server, room, "wrong-key", at)[0] == 403
    assert _schedule(server, room, None, at)[0] == 401
    assert _schedule(server, "no-such-room", key, at)[0] == 404
    status, body = _schedule(server, room, key, "{}", content_type="text/plain")
    assert status == 415, body
    status, body = http.api(server, "PUT", f"/api/rooms/{room}/schedule", body=[1, 2], key=key)
    assert (status, body["error"]["code"]) == (400, "bad_json"), body
    # None of it scheduled anything; one per room.
    assert room_snapshot(server, room)["scheduled"] is None
    assert _schedule(server, room, key, at)[0] == 201
    status, body = _schedule(server, room, key, _rfc3339(now + 180))
    assert (status, body["error"]["code"]) == (409, "already_scheduled"), body
    status, body = http.api(server, "DELETE", f"/api/rooms/{room}/schedule", key="wrong-key")
    assert status == 403, body


# -- cluster mode: two nodes on one Redis (docs/SCALING.md "Scheduled draws") -------------------

def _claims(node) -> dict:
    """The node's scheduled-draw claims the store answered, by outcome (`/metrics`)."""
    prefix = 'livedraw_scheduled_claims_total{outcome="'
    return {series[len(prefix):-2]: int(n) for series, n in http.metrics(node).items() if series.startswith(prefix)}


def _claims_settled(claimers) -> dict:
    """Once every node in `claimers` had its claim answered: the outcomes summed. With every claim
    answered, one won and none failed, nothing is left that could start the draw again (a lost
    claim is dropped; a failed one would be asked again a second later)."""
    total = {}
    def answered():
        total.clear()
        for node in claimers:
            for outcome, n in _claims(node).items():
                total[outcome] = total.get(outcome, 0) + n
        return sum(total.values()) >= len(claimers)
    wait_until(answered, 10, "every node's claim of the scheduled draw answered")
    return dict(total)


async def _one_draw_each(viewers, scheduled: dict, claimers) -> None:
    """Every viewer sees the scheduled draw start once, on time, and end once; every node in
    `claimers` (the live ones that knew of it) claimed it, exactly one of them with success."""
    for viewer in viewers:
        started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=20)
        assert started["drawId"] == scheduled["drawId"] and started["commitment"] == scheduled["commitment"]
        assert 0 <= started["startedAt"] - scheduled["at"] < 1500
        msgs = await viewer.collect_draw(timeout=10)
        assert msgs[-1].type == "finished" and msgs[-1]["drawId"] == scheduled["drawId"], msgs[-1].raw
    claims = await asyncio.to_thread(_claims_settled, claimers)
    # A claim that came while the winner was starting the draw is "held" (the winner's claim is
    # a lease until the draw's first step is recorded) rather than "lost"; that node may ask
    # again once the lease would have ended, and is then told "lost". One won, whatever the rest.
    others = claims.get("lost", 0) + claims.get("held", 0)
    assert claims.get("won") == 1 and others >= len(claimers) - 1 and "failed" not in claims, claims
    for viewer in viewers:
        assert [m.type for m in await viewer.barrier() if m.type in ("loading", "started")] == [], viewer.name
        assert sum(1 for m in viewer.log if m.type == "started") == 1, viewer.name


def _scheduled_on_both(nodes, room: str, key: str, ahead_s: float) -> dict:
    status, scheduled = _schedule(nodes[0], room, key, _rfc3339(time.time() + ahead_s))
    assert status == 201, scheduled
    # The other node reads the shared schedule within its refresh (5 s): both could start it.
    wait_until(lambda: (room_snapshot(nodes[1], room)["scheduled"] or {}).get("drawId") == scheduled["drawId"],
               8, "the other node to know the schedule")
    return scheduled


def test_in_a_cluster_a_scheduled_draw_starts_exactly_once(nodes, redis):
    a, b = nodes
    room = "sched-cluster"
    key = _room(a, room)

    async def scenario():
        viewers = [await WSClient.open(node.ws_url(room), name=f"viewer-{node.port}") for node in (a, b)]
        try:
            await start_when_watched(redis, room, viewers, nodes=2)
            scheduled = await asyncio.to_thread(_scheduled_on_both, nodes, room, key, 7)
            await _one_draw_each(viewers, scheduled, nodes)
            return scheduled
        finally:
            await close_all(viewers)

    scheduled = run(scenario(), timeout=60)
    for node in (a, b):
        page = http.api(node, "GET", f"/api/rooms/{room}/draws")[1]
        assert [d["drawId"] for d in page["draws"]] == [scheduled["drawId"]], page
        assert room_snapshot(node, room)["scheduled"] is None, "the node that did not claim it forgot it too"


def test_in_a_cluster_another_node_starts_the_draw_when_the_scheduling_node_died(nodes, redis):
    a, b = nodes
    room = "sched-takeover"
    key = _room(a, room)

    async def scenario():
        viewer = await WSClient.open(b.ws_url(room), name="viewer-b")
        try:
            await start_when_watched(redis, room, [viewer], nodes=1)
            scheduled = await asyncio.to_thread(_scheduled_on_both, nodes, room, key, 8)
            a.kill()
            await _one_draw_each([viewer], scheduled, [b])
        finally:
            await viewer.close()

    run(scenario(), timeout=60)


def test_in_a_cluster_a_draw_scheduled_through_one_node_is_cancelled_through_the_other(nodes):
    a, b = nodes
    room = "sched-cluster-cancel"
    key = _room(a, room)
    status, scheduled = _schedule(a, room, key, _rfc3339(time.time() + 60))
    assert status == 201, scheduled
    status, body = _schedule(b, room, key, _rfc3339(time.time() + 90))
    assert (status, body["error"]["code"]) == (409, "already_scheduled"), body
    status, cancelled = http.api(b, "DELETE", f"/api/rooms/{room}/schedule", key=key)
    assert status == 200 and cancelled["drawId"] == scheduled["drawId"], cancelled
    assert hashlib.sha256(bytes.fromhex(cancelled["seed"])).hexdigest() == scheduled["commitment"]
    wait_until(lambda: room_snapshot(a, room)["scheduled"] is None, 8, "the scheduling node to forget it")
    status, record = http.api(a, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and (record["status"], record["abortReason"]) == ("aborted", "cancelled"), record


def test_in_a_cluster_a_draw_claimed_by_a_node_that_died_before_starting_it_is_started_by_another(launch, redis):
    """The soak lost a scheduled draw: its node claimed it at its time and stopped before it
    started it. Here node A claims it for real and is killed before it can start it: its link to
    Redis carries A's claim there and holds every answer from that request on, then kill -9. B,
    stopped over the draw's time so that A alone claims it, takes the draw once A's claim (a 5 s
    lease) has lapsed, and its viewer sees the draw start and finish; the history records it once."""
    proxy = SilentDropProxy("127.0.0.1", redis.port)
    a = launch_node(launch, redis, round_interval_ms=100, redis_url=f"redis://127.0.0.1:{proxy.port}")
    b = launch_node(launch, redis, round_interval_ms=100)
    room = "sched-claim-died"
    key = _room(b, room)
    claim_key = None

    async def scenario():
        nonlocal claim_key
        viewer = await WSClient.open(b.ws_url(room), name="viewer-b")
        try:
            await start_when_watched(redis, room, [viewer], nodes=1)
            # Through A, 3 s ahead: A knows it at once; B need not know it before (it reads the
            # store every 5 s, and finds the draw again once A's claim has lapsed).
            status, scheduled = await asyncio.to_thread(_schedule, a, room, key, _rfc3339(time.time() + 3))
            assert status == 201, scheduled
            claim_key = f"live-draw:scheduled-claim:{scheduled['drawId']}"
            # B sleeps through the draw's time; A's answers from Redis stop with its claim (the
            # claim script is the one that answers 'held'; A's reads of the schedule name the
            # claim's key too, so the key alone would not tell them apart).
            proxy.hold_replies_after(b"'held'")
            await asyncio.sleep(max(0.0, scheduled["at"] / 1000 - time.time() - 1.0))
            b.proc.send_signal(signal.SIGSTOP)
            try:
                # Claimed: marked (a lease), or, as this code did before, taken out of the store.
                draw_key = f"live-draw:scheduled:{scheduled['drawId']}"
                await asyncio.to_thread(wait_until, lambda: (redis.get(claim_key) or b"").startswith(b"node-")
                                        or redis.get(draw_key) is None, 8, "A's claim of the draw in Redis")
                a.kill()
            finally:
                b.proc.send_signal(signal.SIGCONT)
            started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=5 + 10)
            assert started["drawId"] == scheduled["drawId"] and started["commitment"] == scheduled["commitment"]
            msgs = await viewer.collect_draw(timeout=10)
            assert msgs[-1].type == "finished" and msgs[-1]["drawId"] == scheduled["drawId"], msgs[-1].raw
            return scheduled
        finally:
            await viewer.close()
            proxy.close()

    scheduled = run(scenario(), timeout=60)
    page = http.api(b, "GET", f"/api/rooms/{room}/draws")[1]
    assert [d["drawId"] for d in page["draws"]] == [scheduled["drawId"]], page
    assert redis.command("EXISTS", f"live-draw:scheduled:{scheduled['drawId']}") == ":0", "it left the store"
