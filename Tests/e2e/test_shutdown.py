"""SIGTERM during a draw: everyone gets `aborted` (seed revealed), then close 1001; exit 0, promptly.

PROTOCOL.md section 2 `aborted` and section 4 (1001).
"""
import asyncio
import signal
import time

from helpers import draw, http
from helpers.wsclient import WSClient, close_all, open_many, run

EXIT_WITHIN_S = 5.0


def test_sigterm_aborts_the_running_draw_and_closes_1001(launch):
    server = launch(round_interval_ms=150)
    other = http.create_room(server, "quiet-room")
    assert other.status == 201

    async def scenario():
        watchers = await open_many(server.ws_url("lobby"), 3, prefix="w")
        quiet = await WSClient.open(server.ws_url("quiet-room"), name="quiet")
        everyone = watchers + [quiet]
        try:
            for c in everyone:
                await c.expect("snapshot")
            assert (await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)).status == 202
            starteds = [(await c.wait_for(lambda m: m.type == "started", timeout=10))[0] for c in watchers]
            await watchers[0].wait_for(lambda m: m.type == "round" and m["round"] == 3, timeout=10)
            t_signal = time.monotonic()
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
