"""Cluster mode, a graceful restart (issue 36, finding 5; docs/SCALING.md "Faults"): a node
running draws in two rooms is sent SIGTERM and started again at once, a few times over. The
draining stop waits for the draw store's queued writes and for the history lines the node owes
the cluster to be acknowledged before the process exits, so:

- right after the exit, the other node's history (`GET /api/rooms/ROOM/draws`, the shared
  history in Redis) already says how every draw ended: nothing stays `running`;
- the log never says the draw store closed with writes still queued, and the restarted node has
  no history line left to resume.

The SIGTERM goes out right after a draw's end reached its viewer (the moment the end's history
line is still on its way to Redis), once with the other room's draw still running (draining
waits for it) and once with both ended (the stop begins at once).
"""
import signal

from helpers import http
from helpers.redis import launch_node, start_when_watched, wait_until
from helpers.wsclient import WSClient, close_all, run

RESTARTS = 5
# The stop's bound: the draws left (a few rounds 100 ms apart), then each phase's grace (2 s).
EXIT_BOUND_S = 15


def _lines(node, room: str) -> dict:
    code, page = http.api(node, "GET", f"/api/rooms/{room}/draws")
    assert code == 200, page
    return {d["drawId"]: d["status"] for d in page["draws"]}


def test_sigterm_restarts_leave_no_draw_running_and_no_line_owed(launch, redis):
    a = launch_node(launch, redis, round_interval_ms=100, rounds=5, shutdown_grace_ms=10_000)
    b = launch_node(launch, redis, round_interval_ms=100, rounds=5)
    rooms = [http.created_room(a) for _ in range(2)]
    draws: dict[str, str] = {}  # drawId -> room

    for attempt in range(RESTARTS):
        both_ended = attempt % 2 == 1

        async def draws_then_sigterm():
            viewers = []
            try:
                for created in rooms:
                    viewer = await WSClient.open(a.ws_url(created["room"]), name=f"viewer-{created['room']}")
                    viewers.append(viewer)
                    await start_when_watched(redis, created["room"], [viewer], 1, a, created["hostKey"])
                first = await viewers[0].collect_draw(timeout=20)
                if both_ended:
                    second = await viewers[1].collect_draw(timeout=20)
                a.signal(signal.SIGTERM)
                if not both_ended:
                    second = await viewers[1].collect_draw(timeout=20)
                return [first[-1], second[-1]]
            finally:
                await close_all(viewers)

        ends = run(draws_then_sigterm(), timeout=60)
        for created, end in zip(rooms, ends):
            assert end.type == "finished", end.raw
            draws[end["drawId"]] = created["room"]
        assert a.wait(EXIT_BOUND_S) == 0, "the node did not exit gracefully"

        # Before the restart: the history lines are in the shared history already.
        for created in rooms:
            lines = _lines(b, created["room"])
            running = [d for d, room in draws.items() if room == created["room"] and lines.get(d) != "finished"]
            assert not running, f"attempt {attempt}: not finished in the shared history after the exit: " \
                                f"{[(d, lines.get(d)) for d in running]}"
        a.restart()
        wait_until(lambda: http.api(a, "GET", "/healthz")[1].get("cluster") == "up", 15, "A's Redis link")

    log = a.log_text(last=100_000)
    assert "writes still queued" not in log, log
    assert "resuming the history lines owed" not in log, log
    # And every node's history says so (the draws' ends, none `running`), after the last restart.
    for node in (a, b):
        for created in rooms:
            lines = _lines(node, created["room"])
            assert all(lines.get(d) == "finished" for d, room in draws.items() if room == created["room"]), lines
