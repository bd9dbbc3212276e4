"""Beacon-committed draws (issue 30, docs/FAIRNESS.md section 9) against a fake drand relay
(helpers/fakedrand.py), so nothing needs the internet.

The draw commits in `started` to round R, the first round published at least the margin after it
is planned; it waits for R, fetches it once it is published, and derives its picks from
HMAC(seed, randomness_R); `finished` and the record carry the round, and tools/verify_draw.py
recomputes them (and catches a tampered randomness or entrant list). A beacon that is down, slow
or answers garbage fails the draw with `beacon_unavailable` after a bounded wait, its seed
revealed and never used. A beacon that serves another chain, or none, stops the start.
"""
import asyncio
import copy
import hashlib
import subprocess

import pytest

from helpers import contracts, draw, http
from helpers.cli import LIVE_DRAW_BIN, REPO
from helpers.fakedrand import CHAIN_HASH, randomness_of, signature_of, drand  # noqa: F401 (a fixture)
from helpers.redis import launch_node, start_when_watched
from helpers.wsclient import WSClient, close_all, open_many, run

MARGIN_MS = 1000   # the least the server allows: R is 1-2 s after the start on a 1 s chain
WAIT_MS = 400      # past R's time, a fault gives up after this


def _launch(launch, drand, tmp_path, wait_ms=WAIT_MS, **opts):
    return launch(beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=MARGIN_MS,
                  beacon_wait_ms=wait_ms, data_dir=str(tmp_path / "data"), fetch_timeout_ms=2000, **opts)


def _one_draw(server, until=("finished", "aborted", "failed")):
    """Starts a draw in the lobby and follows it to its end: (started, rounds, end message)."""
    async def go():
        viewer = await WSClient.open(server.ws_url("lobby"), name="viewer")
        try:
            await viewer.expect("snapshot")
            resp = await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=10)
            # A viewer joining during the wait gets the round in the snapshot's running draw.
            joined = await asyncio.to_thread(http.request, server, "GET", "/api/rooms/lobby")
            end, _ = await viewer.wait_for(lambda m: m.type in until, timeout=20)
            rounds = [m for m in viewer.log if m.type == "round"]
            # Every message as docs/asyncapi.yaml says, beacon fields included.
            assert not [p for m in viewer.log for p in contracts.message_errors(m.data)]
            assert joined.json["draw"]["beacon"] == started["beacon"], joined.json
            return started, rounds, end
        finally:
            await viewer.close()
    return run(go(), timeout=40)


def _record(server, draw_id):
    resp = http.request(server, "GET", f"/api/draws/{draw_id}")
    assert resp.status == 200, resp.body
    assert not contracts.response_errors("GET", f"/api/draws/{draw_id}", resp.status,
                                         resp.headers.get("content-type", ""), resp.body)
    return resp.json


def test_a_beacon_draw_waits_for_its_round_and_verifies(launch, drand, tmp_path):
    server = _launch(launch, drand, tmp_path)
    started, rounds, finished = _one_draw(server)
    assert finished.type == "finished", finished.data
    beacon = started["beacon"]
    r, at = beacon["round"], beacon["at"]
    assert beacon["chain"] == CHAIN_HASH and "randomness" not in beacon, "started names the round, nothing more"
    # R is the first round at least the margin after the draw was planned (just before `started`).
    assert at == drand.round_time(r) * 1000
    # (`started` follows the plan by the record's write, which a slow disk stretches.)
    assert 0 < at - started["startedAt"] <= MARGIN_MS + drand.period * 1000
    assert drand.round_time(r - 1) * 1000 < started["startedAt"] + MARGIN_MS, "R is the first round past the margin"
    # The countdown reaches R: round 1 is planned after it, and shown only once R was fetched.
    assert started["startedAt"] + started["schedule"]["offsetsMs"][0] >= at
    assert rounds and rounds[0]["sentAt"] >= at
    assert set(drand.round_fetches()) == {r}, "only round R is fetched"

    fb = finished["beacon"]
    assert fb == {**beacon, "randomness": randomness_of(r).hex(), "signature": signature_of(r).hex()}
    record = _record(server, finished["drawId"])
    assert record["beacon"] == fb and record["verified"] is True
    rep = draw.verify_draw.verify_document(record)
    assert rep["ok"] and rep["beaconOk"] and rep["roundsChecked"] == 10, rep
    # The picks are the seed's keyed by the round, not the seed's alone.
    key = draw.verify_draw.beacon_key(bytes.fromhex(record["seed"]), randomness_of(r))
    assert record["picks"] == [draw.verify_draw.pick_index(key, record["drawId"], i, len(record["entrants"]))
                               for i in range(1, 11)]
    assert [m["index"] for m in rounds] == record["picks"]

    tampered = copy.deepcopy(record)
    tampered["beacon"]["randomness"] = hashlib.sha256(b"another round").hexdigest()
    assert not draw.verify_draw.verify_document(tampered)["ok"], "a tampered randomness must not verify"
    tampered = copy.deepcopy(record)
    tampered["entrants"] = list(reversed(tampered["entrants"]))
    assert not draw.verify_draw.verify_document(tampered)["ok"], "a tampered entrant list must not verify"


# `huge`: one byte past DrandClient.maxResponseBytes (64 KiB) is refused like garbage.
@pytest.mark.parametrize("mode", ["down", "slow", "garbage", "forged", "huge"])
def test_a_beacon_that_fails_ends_the_draw_with_beacon_unavailable(launch, drand, tmp_path, mode):
    server = _launch(launch, drand, tmp_path)
    drand.slow_seconds = 3.0
    drand.set_mode(mode)
    started, rounds, end = _one_draw(server)
    at = started["beacon"]["at"]
    assert end.type == "aborted" and end["reason"] == "beacon_unavailable", end.data
    assert rounds == [] and end["roundsShown"] == 0, "no pick was ever shown"
    draw.assert_seed_matches(end["seed"], started["commitment"])
    # Bounded: given up WAIT_MS after R's time (plus a retry's pause and the fan-out), never sooner.
    assert at + WAIT_MS - 50 <= end.at <= at + WAIT_MS + 1500, (end.at - at)
    record = _record(server, started["drawId"])
    assert record["status"] == "aborted" and record["abortReason"] == "beacon_unavailable"
    assert record["beacon"]["randomness"] is None and record["beacon"]["signature"] is None
    assert record["rounds"] == [] and record["outcome"] is None
    rep = draw.verify_draw.verify_document(record)
    assert rep["ok"] and rep["seedUsed"] is False and rep["roundsChecked"] == 0, rep


def test_a_late_relay_is_asked_again_until_it_serves_the_round(launch, drand, tmp_path):
    """The retry (BeaconSettings.retryMs) within the wait: a relay that answers 425 at R's time
    and serves R a moment later still gives a finished draw, from R, after a second fetch."""
    server = _launch(launch, drand, tmp_path, wait_ms=3000)
    drand.lag_seconds = 0.5  # past the first fetch at R's time; a few retries (250 ms apart) later, served
    started, rounds, finished = _one_draw(server)
    assert finished.type == "finished", finished.data
    r = started["beacon"]["round"]
    fetches = drand.round_fetches()
    assert set(fetches) == {r} and len(fetches) >= 2, fetches
    assert finished["beacon"]["randomness"] == randomness_of(r).hex()
    assert rounds and rounds[0]["sentAt"] >= started["beacon"]["at"] + drand.lag_seconds * 1000
    assert draw.verify_draw.verify_document(_record(server, finished["drawId"]))["ok"]


def test_in_a_cluster_one_node_fetches_and_every_node_shows_the_same_round(launch, redis, drand, tmp_path):
    """docs/SCALING.md "Beacon draws": the running node fetches R once; the others get R in
    `started` and its values in `finished`, the same bytes."""
    a, b = (launch_node(launch, redis, beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=MARGIN_MS,
                        beacon_wait_ms=WAIT_MS, data_dir=str(tmp_path / name), round_interval_ms=50)
            for name in ("a", "b"))
    created = http.created_room(a)

    async def scenario():
        clients = await open_many(a.ws_url(created["room"]), 1, prefix="a") \
            + await open_many(b.ws_url(created["room"]), 1, prefix="b")
        try:
            await start_when_watched(redis, created["room"], clients, 2, a, created["hostKey"])
            return await asyncio.gather(*(c.collect_draw(timeout=20) for c in clients))
        finally:
            await close_all(clients)

    on_a, on_b = run(scenario(), timeout=40)
    assert [m.raw for m in on_a] == [m.raw for m in on_b]
    finished = on_b[-1]
    assert finished.type == "finished", finished.data
    r = finished["beacon"]["round"]
    assert finished["beacon"]["randomness"] == randomness_of(r).hex()
    assert drand.round_fetches() == [r], "one node, one fetch"


def _start_fails(*args):
    # From the repository root, so the page and the bundled lists are found wherever the binary is.
    result = subprocess.run([LIVE_DRAW_BIN, "--data-dir", "off", "--port", "0", *args], capture_output=True,
                            text=True, timeout=20, stdin=subprocess.DEVNULL, cwd=REPO)
    lines = [l for l in (result.stdout + result.stderr).splitlines() if "error" in l.lower()]
    return result.returncode, lines


def test_a_beacon_serving_another_chain_stops_the_start(drand):
    drand.info_hash = "ab" * 32
    code, lines = _start_fails("--beacon-url", drand.url, "--beacon-chain", CHAIN_HASH)
    assert code != 0 and len(lines) == 1, lines
    assert "not the configured" in lines[0] and CHAIN_HASH in lines[0], lines


def test_an_unreachable_beacon_stops_the_start(drand):
    drand.stop_listening()
    code, lines = _start_fails("--beacon-url", drand.url, "--beacon-chain", CHAIN_HASH)
    assert code != 0 and len(lines) == 1 and "--beacon-url" in lines[0], lines


@pytest.mark.parametrize("args, needle", [
    (["--beacon-url", "https://api.drand.sh"], "--beacon-chain"),
    (["--beacon-chain", CHAIN_HASH], "--beacon-url"),
    (["--beacon-url", "ftp://x", "--beacon-chain", CHAIN_HASH], "http or https"),
    (["--beacon-url", "http://x", "--beacon-chain", "abc"], "64 hex"),
    (["--beacon-url", "http://x", "--beacon-chain", CHAIN_HASH, "--beacon-margin-ms", "999"], "--beacon-margin-ms"),
    (["--beacon-url", "http://x", "--beacon-chain", CHAIN_HASH, "--beacon-wait-ms", "60001"], "--beacon-wait-ms"),
])
def test_bad_beacon_options_are_one_line(args, needle):
    code, lines = _start_fails(*args)
    assert code == 64 and len(lines) == 1 and needle in lines[0], lines
