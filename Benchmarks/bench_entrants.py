"""Scenario f of Benchmarks/bench.py (issue 15): big entrant lists without big fan-out.

One room, N viewers (10,000 by default), a draw among 100,000 entrants against the same run among
4 entrants, interleaved (small, big, small, big, ...). Measured: each viewer's round-1 delivery
latency (receipt - the round's `sentAt`); the target is p99(100,000) / p99(4) <= 1.25. Before
protocol v2, `started` carried the whole list to every viewer (about 9 MB each here) right before
round 1. The viewers offer `live-draw.v2, live-draw.v1`, as the page does (an older server picks v1).

The lists are files written once into Benchmarks/.build/ and given to the server as file:// URLs.
"""
import json
import os
import time

SUBPROTOCOLS = "live-draw.v2, live-draw.v1"
ROUND_1 = '"round":1,"of"'  # only round 1 is timed (`"round":10,"of"` does not match)


def list_files(build_dir, n):
    """Paths of users and lottery documents with `n` entrants (every 97th void), written once."""
    folder = os.path.join(build_dir, f"entrants-{n}")
    users, lottery = os.path.join(folder, "users.json"), os.path.join(folder, "lottery.json")
    if not os.path.exists(lottery):
        os.makedirs(folder, exist_ok=True)
        with open(users, "w") as f:
            json.dump({"items": [{"userId": i, "name": f"Entrant {i:06d}", "username": f"user{i}",
                                  "regDate": "2020-01-01"} for i in range(1, n + 1)]}, f, separators=(",", ":"))
        with open(lottery, "w") as f:
            json.dump({"lotteryList": [{"userId": i, "void": i % 97 == 0} for i in range(1, n + 1)]}, f,
                      separators=(",", ":"))
    return users, lottery


def lists(build_dir, n):
    """The server's arguments for users and lottery lists with `n` entrants, as file:// URLs."""
    users, lottery = list_files(build_dir, n)
    # 100,000 users are about 7 MB: above the default 1 MiB cap on a fetched list.
    return ["--users-url", f"file://{users}", "--lottery-url", f"file://{lottery}", "--fetch-max-bytes", str(64 << 20)]


def run_once(bench, viewers, entrants, interval=100):
    p, port = bench.start_ours(interval, extra=lists(bench.BUILD, entrants))
    try:
        key = json.loads(bench.api(port, "POST", "/api/rooms", {"name": "r1"}))["hostKey"]
        trig = (f"curl -s -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer {key}' "
                f"http://127.0.0.1:{port}/api/rooms/r1/draws")
        return bench.derive(bench.ldgen(port, p.pid, viewers, "/ws/r1", 1, trig, timeout=120,
                                        extra=["--subprotocol", SUBPROTOCOLS, "--match", ROUND_1]))
    finally:
        bench.kill(p)


def scenario_f(bench, viewers, big, repeats):
    """Returns the report lines."""
    runs = {4: [], big: []}
    for i in range(repeats):
        for n in (4, big):
            bench.log(f"[e] {viewers} viewers, {n} entrants, repeat {i + 1}/{repeats}")
            runs[n].append(run_once(bench, viewers, n)); time.sleep(1)
            bench.log(json.dumps({"entrants": n, "run": runs[n][-1]}))
    med = {n: bench.median_of(rs) for n, rs in runs.items()}
    rows = [("f", f"{n} entrants", viewers, med[n]) for n in (4, big)]
    ratio = med[big]["lat_p99_ms"] / med[4]["lat_p99_ms"] if med[4]["lat_p99_ms"] else float("nan")
    each = lambda n: " / ".join(f"{r['lat_p99_ms']:.1f}" for r in runs[n])
    return [f"\nScenario f: one room, {viewers} viewers, round-1 delivery among {big} vs 4 entrants "
            f"(protocol v2), 100 ms rounds; median of {repeats}",
            bench.table(rows),
            f"round-1 p99 {big}/4 entrants: {ratio:.2f}  (target <= 1.25);  each run p99: "
            f"4: {each(4)} ms;  {big}: {each(big)} ms;  lost {med[big]['lost']:.0f}"]
