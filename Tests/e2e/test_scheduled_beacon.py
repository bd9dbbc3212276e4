"""Scheduled draws committed to a beacon round (issue 30, docs/FAIRNESS.md section 10), against
the fake drand relay (helpers/fakedrand.py).

With a beacon configured, scheduling a draw also commits to round R, the first round published
at least the margin after the *scheduled* time: R is in the commitment published at once (the
PUT's answer, the room's snapshot, `GET /api/draws/ID`), survives a restart, and the draw started
at its time waits for that very R, fetches it and verifies with tools/verify_draw.py. A beacon
down at the draw's time ends it `beacon_unavailable` with its seed revealed; so does a server
restarted without the beacon the draw committed to.
"""
import json
import signal
import subprocess
import time

from helpers import contracts, draw, http
from helpers.fakedrand import CHAIN_HASH, randomness_of, signature_of, drand  # noqa: F401 (a fixture)
from helpers.rooms import room_snapshot
from helpers.wsclient import WSClient, run
from test_scheduled_draws import NAMES, TOOL, _check_published, _rfc3339, _room, _schedule

MARGIN_MS = 1000
WAIT_MS = 400


def _launch(launch, drand, tmp_path):
    return launch(beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=MARGIN_MS,
                  beacon_wait_ms=WAIT_MS, data_dir=str(tmp_path / "data"), fetch_timeout_ms=2000)


def _scheduled_with_beacon(server, drand, room: str, ahead_s: float):
    key = _room(server, room)
    status, scheduled = _schedule(server, room, key, _rfc3339(time.time() + ahead_s))
    assert status == 201, scheduled
    beacon = scheduled["beacon"]
    r, at = beacon["round"], scheduled["at"]
    # R is the first round published at least the margin after the scheduled time, not after now.
    assert beacon == {"chain": CHAIN_HASH, "round": r, "at": drand.round_time(r) * 1000}, beacon
    assert beacon["at"] >= at + MARGIN_MS > drand.round_time(r - 1) * 1000, (beacon, at)
    return key, scheduled


def _published_beacon(server, scheduled) -> None:
    """R is in the room's snapshot and in the waiting draw's record, with the rest, as
    docs/openapi.yaml says."""
    _check_published(server, scheduled["room"], scheduled)
    assert room_snapshot(server, scheduled["room"])["scheduled"]["beacon"] == scheduled["beacon"]
    for path in (f"/api/draws/{scheduled['drawId']}", f"/api/rooms/{scheduled['room']}"):
        resp = http.request(server, "GET", path)
        assert not contracts.response_errors("GET", path, resp.status, resp.headers.get("content-type", ""), resp.body)
    status, record = http.api(server, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and record["beacon"] == scheduled["beacon"], record


def _follow(server, scheduled):
    """A viewer watches the scheduled draw from its start to its end: (started, rounds, end)."""
    async def go():
        viewer = await WSClient.open(server.ws_url(scheduled["room"]), name="viewer")
        try:
            await viewer.expect("snapshot")
            started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=15)
            end, _ = await viewer.wait_for(lambda m: m.type in ("finished", "aborted", "failed"), timeout=15)
            return started, [m for m in viewer.log if m.type == "round"], end
        finally:
            await viewer.close()
    return run(go(), timeout=40)


def _verify_with_tool(server, draw_id: str, *extra, ok: bool = True) -> dict:
    done = subprocess.run(TOOL + ["--server", server.base_url, "--draw", draw_id, *extra],
                          capture_output=True, text=True, timeout=60)
    report = json.loads(done.stdout)
    assert (done.returncode == 0) == ok and report["ok"] == ok, report
    return report


def test_a_scheduled_beacon_draw_keeps_its_round_over_a_restart_waits_for_it_and_verifies(launch, drand, tmp_path):
    srv = _launch(launch, drand, tmp_path)
    _, scheduled = _scheduled_with_beacon(srv, drand, "sched-beacon", 4)
    _published_beacon(srv, scheduled)
    srv.stop(sig=signal.SIGTERM)
    srv.restart()
    _published_beacon(srv, scheduled)  # the restart kept R, not one named from its own clock

    started, rounds, finished = _follow(srv, scheduled)
    r, r_at = scheduled["beacon"]["round"], scheduled["beacon"]["at"]
    assert 0 <= started["startedAt"] - scheduled["at"] < 1500, "started on time"
    assert started["beacon"] == scheduled["beacon"], "the round committed at scheduling"
    # The countdown, stretched at the start, reaches R; round 1 shown only once R was fetched.
    assert started["startedAt"] + started["schedule"]["offsetsMs"][0] >= r_at
    assert finished.type == "finished", finished.data
    assert rounds and rounds[0]["sentAt"] >= r_at
    assert set(drand.round_fetches()) == {r}, "only the committed round is fetched"
    assert finished["beacon"] == {**scheduled["beacon"], "randomness": randomness_of(r).hex(),
                                  "signature": signature_of(r).hex()}
    assert (finished["commitment"], finished["entrantsHash"]) == (scheduled["commitment"], scheduled["entrantsHash"])
    assert [p["name"] for p in finished["entrants"]] == NAMES

    status, record = http.api(srv, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and record["verified"] is True, record
    # The record carries the scheduling time: R is the one a commitment made then names.
    assert record["createdAt"] == scheduled["scheduledAt"] and record["beacon"] == finished["beacon"]
    # Against the commitment published at scheduling: the record is that draw, with that round.
    published = tmp_path / "scheduled.json"
    published.write_text(json.dumps(scheduled))
    report = _verify_with_tool(srv, scheduled["drawId"], "--scheduled", str(published))
    assert report["beaconOk"] and report["scheduledOk"] and report["beaconRound"] == report["scheduledRound"] == r
    published.write_text(json.dumps({**scheduled, "beacon": {**scheduled["beacon"], "round": r + 1}}))
    report = _verify_with_tool(srv, scheduled["drawId"], "--scheduled", str(published), ok=False)
    assert report["scheduledOk"] is False, "a round other than the one committed is caught"


def test_a_beacon_down_at_the_draws_time_ends_it_beacon_unavailable_with_its_seed(launch, drand, tmp_path):
    srv = _launch(launch, drand, tmp_path)
    _, scheduled = _scheduled_with_beacon(srv, drand, "sched-beacon-down", 3)
    drand.set_mode("down")
    started, rounds, end = _follow(srv, scheduled)
    assert started["beacon"] == scheduled["beacon"]
    assert end.type == "aborted" and end["reason"] == "beacon_unavailable", end.data
    assert rounds == [] and end["roundsShown"] == 0
    draw.assert_seed_matches(end["seed"], scheduled["commitment"])
    status, record = http.api(srv, "GET", f"/api/draws/{scheduled['drawId']}")
    assert (record["status"], record["abortReason"]) == ("aborted", "beacon_unavailable"), record
    assert record["beacon"]["round"] == scheduled["beacon"]["round"] and record["beacon"]["randomness"] is None
    report = _verify_with_tool(srv, scheduled["drawId"])
    assert report["seedUsed"] is False, report


def test_a_cancelled_beacon_schedule_is_recorded_with_its_round_and_seed_and_verifies(launch, drand, tmp_path):
    srv = _launch(launch, drand, tmp_path)
    key, scheduled = _scheduled_with_beacon(srv, drand, "sched-beacon-cancel", 60)
    status, body = http.api(srv, "DELETE", "/api/rooms/sched-beacon-cancel/schedule", key=key)
    assert status == 200, body
    draw.assert_seed_matches(body["seed"], scheduled["commitment"])
    status, record = http.api(srv, "GET", f"/api/draws/{scheduled['drawId']}")
    assert (record["status"], record["abortReason"]) == ("aborted", "cancelled"), record
    assert record["beacon"] == {**scheduled["beacon"], "randomness": None, "signature": None}, record
    assert _verify_with_tool(srv, scheduled["drawId"])["seedUsed"] is False
    assert drand.round_fetches() == []


def test_a_schedule_committed_to_a_round_cannot_run_on_a_server_restarted_without_the_beacon(launch, drand, tmp_path):
    srv = _launch(launch, drand, tmp_path)
    _, scheduled = _scheduled_with_beacon(srv, drand, "sched-beacon-gone", 4)
    srv.stop(sig=signal.SIGTERM)
    plain = launch(data_dir=str(tmp_path / "data"))
    _published_beacon(plain, scheduled)
    _, rounds, end = _follow(plain, scheduled)
    assert end.type == "aborted" and end["reason"] == "beacon_unavailable", end.data
    assert rounds == []
    draw.assert_seed_matches(end["seed"], scheduled["commitment"])
    assert drand.round_fetches() == [], "nothing was fetched: this server has no beacon"
