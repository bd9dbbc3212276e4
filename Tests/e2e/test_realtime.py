"""`--realtime-priority`: the thread that times and sends the rounds runs under SCHED_FIFO, and only
it; a process that may not gets one clear line and exit 1, never a half-started server.

Read from the kernel itself: /proc/PID/task/TID/stat gives each thread's policy and real-time
priority (fields 41 and 40), so the test checks what the scheduler sees, not what the server says.
"""
import os
import shutil
import subprocess

import pytest

from helpers import rooms
from helpers.cli import LIVE_DRAW_BIN

SCHED_OTHER, SCHED_FIFO = 0, 1


def _may_use_realtime() -> bool:
    return shutil.which("chrt") is not None and \
        subprocess.run(["chrt", "-f", "1", "true"], capture_output=True).returncode == 0


def _threads(pid: int) -> dict[int, tuple[int, int]]:
    """Each thread's (policy, real-time priority), by thread id."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            # The command name (field 2) may hold spaces: split after its closing parenthesis.
            fields = f.read().rsplit(")", 1)[1].split()
        out[int(tid)] = (int(fields[38]), int(fields[37]))   # policy, rt_priority (fields 41, 40)
    return out


@pytest.mark.skipif(not _may_use_realtime(), reason="this machine grants no real-time scheduling (CAP_SYS_NICE)")
def test_only_the_service_thread_runs_realtime_and_draws_run(launch):
    server = launch(realtime_priority=9, round_interval_ms=50)
    assert any("SCHED_FIFO" in line for line in server.lines), server.lines
    # A draw first: the threads it needs (list fetches, the pool, storage) exist afterwards.
    record = rooms.run_draw(server, "lobby", server.lobby_key)
    # A draw that lands on a void entry is "finished" too, with no winner.
    assert record["status"] == "finished", record
    threads = _threads(server.proc.pid)
    assert threads[server.proc.pid] == (SCHED_FIFO, 9), threads
    others = {tid: s for tid, s in threads.items() if tid != server.proc.pid}
    assert len(others) >= 2, f"expected the server's helper threads too: {threads}"
    assert all(s == (SCHED_OTHER, 0) for s in others.values()), f"a helper thread inherited the policy: {threads}"


def test_without_the_capability_start_fails_with_the_fix():
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is not installed")
    probe = subprocess.run(["setpriv", "--bounding-set", "-sys_nice", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot drop CAP_SYS_NICE here: {probe.stderr!r}")
    # No capability and no real-time limit (lowering a limit needs no privilege).
    no_limit = ["prlimit", "--rtprio=0:0"] if shutil.which("prlimit") else []
    result = subprocess.run([*no_limit, "setpriv", "--bounding-set", "-sys_nice", LIVE_DRAW_BIN, "--data-dir", "off",
                             "--port", "0", "--realtime-priority", "5"],
                            capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    lines = [l for l in (result.stdout + result.stderr).splitlines() if l.strip()]
    assert result.returncode == 1, lines
    errors = [l for l in lines if "error" in l.lower()]
    assert len(errors) == 1, lines
    assert "real-time priority 5 refused" in errors[0] and "rtprio=5" in errors[0] and "CAP_SYS_NICE" in errors[0], errors
    assert not any("listening" in l for l in lines), "it must fail before it listens"
