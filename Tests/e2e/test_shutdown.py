"""Shutdown: the first SIGTERM drains (the running draw finishes, new starts get 503 `draining`,
/healthz turns 503), a second one aborts (everyone gets `aborted`, seed revealed), then close 1001;
exit 0, promptly.

PROTOCOL.md section 2 `aborted`, section 4 (1001) and section 5.5 (draining).
"""
import asyncio
import signal
import time

from helpers import draw, http
from helpers.wsclient import WSClient, close_all, open_many, run

EXIT_WITHIN_S = 5.0


async def _lobby_draw_at_round(server, everyone, watchers, n):
    """Every client has its snapshot, a lobby draw is started, and `watchers[0]` has seen round
    `n`; returns each watcher's `started`."""
    for c in everyone:
        await c.expect("snapshot")
    assert (await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)).status == 202
    starteds = [(await c.wait_for(lambda m: m.type == "started", timeout=10))[0] for c in watchers]
    await watchers[0].wait_for(lambda m: m.type == "round" and m["round"] == n, timeout=10)
    return starteds


def test_second_sigterm_aborts_the_running_draw_and_closes_1001(launch):
    server = launch(round_interval_ms=300)
    other = http.create_room(server, "quiet-room")
    assert other.status == 201

    async def scenario():
        watchers = await open_many(server.ws_url("lobby"), 3, prefix="w")
        quiet = await WSClient.open(server.ws_url("quiet-room"), name="quiet")
        everyone = watchers + [quiet]
        try:
            starteds = await _lobby_draw_at_round(server, everyone, watchers, 3)
            t_signal = time.monotonic()
            server.signal(signal.SIGTERM)
            # Draining: the server says so before the second signal, so it is not lost in the first.
            await asyncio.to_thread(http.wait_health, server, 503)
            server.signal(signal.SIGTERM)
            ends = await asyncio.gather(*(c.expect_close(timeout=EXIT_WITHIN_S) for c in everyone))
            code = await asyncio.to_thread(server.wait, EXIT_WITHIN_S)
            elapsed = time.monotonic() - t_signal
        finally:
            await close_all(everyone)
        return starteds, ends, code, elapsed, [c.log for c in watchers]

    starteds, ends, code, elapsed, logs = run(scenario(), timeout=30)
    assert code == 0, f"exit status {code} (None = still running {EXIT_WITHIN_S}s after SIGTERM)"
    assert elapsed < EXIT_WITHIN_S

    aborts = set()
    for started, (closed, before), log in zip(starteds, ends[:3], logs):
        assert closed.code == 1001, f"close {closed} on shutdown"
        tail = [m for m in before if m.type != "round"]
        assert [m.type for m in tail] == ["aborted"], [m.raw[:120] for m in before]
        assert before[-1].type == "aborted", "rounds after the aborted message"
        aborted = tail[0]
        aborts.add(aborted.raw)
        assert aborted["reason"] == "server_shutdown"
        assert aborted["drawId"] == started["drawId"]
        draw.assert_seed_matches(aborted["seed"], started["commitment"])
        # Every round this client saw, and no more than it saw, is counted and verifies.
        shown = [m for m in log if m.type == "round"]
        assert [m["round"] for m in shown] == list(range(1, len(shown) + 1))
        assert aborted["roundsShown"] == len(shown), f"roundsShown {aborted['roundsShown']}, client saw {len(shown)}"
        assert 3 <= len(shown) < 10
        rep = draw.verify_draw.verify(started["drawId"], aborted["seed"], started["entrants"], 10,
                                      started["commitment"], started["entrantsHash"])
        assert rep["commitmentOk"] and rep["entrantsHashOk"]
        assert all(m["index"] == rep["picks"][m["round"] - 1] for m in shown), "shown rounds do not match the seed"
    assert len(aborts) == 1, "watchers got different aborted messages"

    quiet_closed, quiet_before = ends[3]
    assert quiet_closed.code == 1001, f"idle room's client closed with {quiet_closed}"
    assert not [m for m in quiet_before if m.type in ("aborted", "round", "started")], \
        "the idle room got another room's draw messages"


def test_sigterm_at_round_3_lets_the_draw_finish_and_records_it(launch):
    """A rolling restart during a draw: the draw goes on to `finished` (recorded so), a start in
    the meantime gets 503 `draining`, /healthz says draining, then everyone is closed 1001."""
    server = launch(round_interval_ms=150, shutdown_grace_ms=20_000)
    other = http.create_room(server, "other-room")
    assert other.status == 201
    other_key = other.json["hostKey"]

    async def scenario():
        watchers = await open_many(server.ws_url("lobby"), 3, prefix="w")
        host = await WSClient.open(server.ws_url("other-room"), name="host")
        everyone = watchers + [host]
        try:
            started = (await _lobby_draw_at_round(server, everyone, watchers, 3))[0]
            server.signal(signal.SIGTERM)
            health = await asyncio.to_thread(http.wait_health, server, 503)
            # New draws are refused, over HTTP and over the WebSocket; the running one goes on.
            refused = await asyncio.to_thread(http.start_draw, server, "other-room", other_key)
            await host.send_json({"type": "start", "hostKey": other_key})
            ws_refusal = (await host.wait_for(lambda m: m.type == "error", timeout=5))[0]
            snapshot = await asyncio.to_thread(http.request, server, "GET", "/api/rooms/lobby")
            ends = await asyncio.gather(*(c.expect_close(timeout=10) for c in everyone))
            code = await asyncio.to_thread(server.wait, 10)
        finally:
            await close_all(everyone)
        return started, health, refused, ws_refusal, snapshot, ends, code, [c.log for c in watchers]

    started, health, refused, ws_refusal, snapshot, ends, code, logs = run(scenario(), timeout=40)
    assert health.json == {"status": "draining"}
    assert refused.status == 503 and refused.error_code() == "draining", refused.body
    assert ws_refusal["code"] == "draining"
    assert snapshot.status == 200, "reads are still served while draining"
    assert code == 0, f"exit status {code}\n{server.log_text()}"

    for (closed, _), log in zip(ends[:3], logs):
        assert closed.code == 1001, f"close {closed} on shutdown"
        types = [m.type for m in log]
        assert "aborted" not in types
        assert [m["round"] for m in log if m.type == "round"] == list(range(1, 11))
        finished = [m for m in log if m.type == "finished"]
        assert len(finished) == 1 and finished[0]["drawId"] == started["drawId"]
        draw.assert_verifies(finished[0].data, started.data)
    assert ends[3][0].code == 1001
    assert not [m for m in ends[3][1] if m.type in ("loading", "started")], "the refused start ran"

    # Same data dir, next process: the record says `finished`.
    server.restart()
    record = http.request(server, "GET", f"/api/draws/{started['drawId']}")
    assert record.status == 200
    assert record.json["status"] == "finished", record.json


def test_sigterm_without_a_running_draw_stops_at_once(launch):
    """Nothing to wait for: draining ends as soon as it begins, whatever the grace period."""
    server = launch(shutdown_grace_ms=60_000)

    async def scenario():
        c = await WSClient.open(server.ws_url("lobby"), name="idle")
        try:
            await c.expect("snapshot")
            server.signal(signal.SIGTERM)
            closed, _ = await c.expect_close(timeout=EXIT_WITHIN_S)
            return closed, await asyncio.to_thread(server.wait, EXIT_WITHIN_S)
        finally:
            await c.close()

    closed, code = run(scenario(), timeout=20)
    assert closed.code == 1001
    assert code == 0


def test_the_grace_period_ends_the_drain_with_an_abort(launch):
    """A draw longer than the grace period: aborted (seed revealed) when the grace is over."""
    server = launch(round_interval_ms=1000, shutdown_grace_ms=1500)

    async def scenario():
        c = await WSClient.open(server.ws_url("lobby"), name="w")
        try:
            started = (await _lobby_draw_at_round(server, [c], [c], 1))[0]
            t_signal = time.monotonic()
            server.signal(signal.SIGTERM)
            closed, before = await c.expect_close(timeout=10)
            return started, closed, before, time.monotonic() - t_signal, await asyncio.to_thread(server.wait, 10)
        finally:
            await c.close()

    started, closed, before, elapsed, code = run(scenario(), timeout=30)
    assert closed.code == 1001 and code == 0
    aborted = [m for m in before if m.type == "aborted"]
    assert len(aborted) == 1 and aborted[0]["reason"] == "server_shutdown"
    draw.assert_seed_matches(aborted[0]["seed"], started["commitment"])
    assert 1.4 <= elapsed < 1.5 + EXIT_WITHIN_S, f"aborted {elapsed:.2f}s after SIGTERM, grace 1.5 s"


def test_sigterm_right_after_startup_exits_promptly(launch):
    """An operator (or a supervisor) may stop the server the moment it has printed its links.

    The banner is the readiness signal scripts wait for, so a SIGTERM right after it must still
    be a graceful stop, not be lost while the handlers are being installed.
    """
    for _ in range(3):  # a lost signal is a race: give it several chances to show
        server = launch()
        server.signal(signal.SIGTERM)
        code = server.wait(EXIT_WITHIN_S)
        assert code == 0, f"exit status {code} (None = still running {EXIT_WITHIN_S}s after SIGTERM)\n{server.log_text()}"
