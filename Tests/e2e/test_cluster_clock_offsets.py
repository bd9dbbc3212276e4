"""Clock offsets in a cluster (issue 36, docs/SCALING.md "Clocks"): one node of two runs under
libfaketime with its wall clock +2 s, +30 s or -30 s off (its monotonic clock untouched). Cluster
deadlines are Redis' clock, so whatever the offset:

- every node's viewers see the room's total viewer count (presence expiry is Redis' `TIME`; a
  node 30 s ahead used to count only its own viewers, one 30 s behind was left out of the
  others' counts);
- a draw scheduled through the other node starts within 0.5 s of its time by Redis' clock when
  the skewed node is the one that claims it (the other node is killed before the time; a node
  ahead used to start it early by its offset, one behind late by its offset).

Times are measured here, when a message arrives (this machine's clock is Redis'), never from the
skewed node's `startedAt`.
"""
import asyncio
import glob
import time

import pytest

from helpers import http
from helpers.redis import launch_node, start_when_watched, wait_until
from helpers.rooms import room_snapshot
from helpers.wsclient import WSClient, close_all, run
from test_scheduled_draws import _rfc3339, _room, _schedule

LIBFAKETIME = next(iter(sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))), None)
pytestmark = pytest.mark.skipif(LIBFAKETIME is None, reason="libfaketime not installed (Debian package faketime)")

# The draw's time, seconds after it is scheduled: past the other nodes' 5 s read of the schedule,
# so the skewed node knows it before its time and, on a node ahead, early enough to show it.
AHEAD_S = 7
# How far from its time (by Redis' clock) the draw may start.
TOLERANCE_MS = 500


def _faketime(offset: str) -> list[str]:
    """The command prefix that runs a node with its wall clock `offset` off. The monotonic clock
    stays true: lws' timers and the lease's renewals run on it.

    `FAKETIME_SHARED` names no shared memory on purpose: without it libfaketime `setenv`s one at
    load, which moves `environ` off the process' initial stack, and Swift on Linux finds argv by
    walking back from `environ`: the node would start with no arguments. The shared memory is
    only the `faketime` wrapper's (a start time shared by its children); a fixed offset needs none."""
    return ["env", f"FAKETIME={offset}", "FAKETIME_DONT_FAKE_MONOTONIC=1", "FAKETIME_SHARED=/live-draw-none /live-draw-none",
            f"LD_PRELOAD={LIBFAKETIME}"]


@pytest.mark.parametrize("offset,seconds", [("+2s", 2), ("+30s", 30), ("-30s", -30)])
def test_a_node_with_its_clock_off_counts_every_viewer_and_starts_a_scheduled_draw_on_time(launch, redis, offset,
                                                                                          seconds):
    honest = launch_node(launch, redis, round_interval_ms=100)
    skewed = launch_node(launch, redis, _prefix=_faketime(offset), round_interval_ms=100)
    room = f"clock{seconds:+d}".replace("+", "ahead").replace("-", "behind")
    key = _room(honest, room)

    async def scenario():
        on_honest = [await WSClient.open(honest.ws_url(room), name="honest-0")]
        on_skewed = [await WSClient.open(skewed.ws_url(room), name=f"skewed-{i}") for i in range(2)]
        try:
            await start_when_watched(redis, room, on_honest + on_skewed, nodes=2)
            status, scheduled = await asyncio.to_thread(_schedule, honest, room, key, _rfc3339(time.time() + AHEAD_S))
            assert status == 201, scheduled
            # Each node reports once a second and a report lives 3 s: within a few seconds every
            # node shows all three, whichever clock is off.
            for viewer in (on_honest[0], on_skewed[0]):
                await viewer.wait_for(lambda m: m.type == "presence" and m["viewers"] == 3, 6)
            # Only the skewed node may claim the draw now.
            honest.kill()
            remaining = scheduled["at"] / 1000 - time.time()
            assert remaining > 1, "the checks above took the draw's time"
            started, _ = await on_skewed[0].wait_for(lambda m: m.type == "started", remaining + 3)
            assert started["drawId"] == scheduled["drawId"], started.raw
            # The node stamps `startedAt` with its own clock: libfaketime did take hold of it.
            assert abs(started["startedAt"] - started.at - seconds * 1000) < 1000, (started["startedAt"], started.at)
            off_ms = started.at - scheduled["at"]
            assert -TOLERANCE_MS <= off_ms <= TOLERANCE_MS, f"started {off_ms:+.0f} ms from its time by Redis' clock"
            msgs = await on_skewed[0].collect_draw(timeout=10)
            assert msgs[-1].type == "finished" and msgs[-1]["drawId"] == scheduled["drawId"], msgs[-1].raw
        finally:
            await close_all(on_honest + on_skewed)

    run(scenario(), timeout=45)
    wait_until(lambda: room_snapshot(skewed, room)["scheduled"] is None, 5, "the schedule gone from the snapshot")
