#!/usr/bin/env python3
"""live-draw fan-out benchmark (issue 7). `make bench` runs it; see Benchmarks/README.md.

Scenarios:
  a  one room, N viewers, 10 rounds 100 ms apart; live-draw vs the raw-C lws_fanout reference,
     interleaved in the same run, server pinned to CPU 0 and the load generator to CPU 1.
  b  many rooms (default 1000 x 10 viewers), all drawing at once at 400 ms: round lateness vs due
     time from the server's livedraw_round_lateness_seconds histogram.
  c  join storm: N clients connect while a draw is live; failed connects; first message a snapshot
     of the right room.
  d  cluster (issue 14): one room, N viewers split over two nodes sharing a redis-server, the draw
     started through node A, against one node serving the same N, interleaved in the same run:
     delivery p99 (per node too), CPU per delivered message (both nodes summed, redis apart).
     Both nodes and redis on CPU 0, ldgen on CPU 1. Code in Benchmarks/bench_cluster.py.
  e  many rooms starting at once, with their records: 1000 rooms + the lobby, one viewer each, all
     draws started within 0.8 s (by ldgen, over the viewers' WebSockets), 400 ms rounds, a real
     data directory. Measures the gaps each viewer sees between consecutive steps (started, rounds,
     finished) against 400 ms.
  f  big entrant lists (issue 15): one room, 10,000 viewers, round-1 delivery p99 with 100,000
     entrants against 4 (Benchmarks/bench_entrants.py).
  u  uploads (issue 31): PUT of 100,000 entrants as text and as JSON, and 16 MiB of
     {"users":[1,1,…]}, each to a fresh server, without records and with them (a temporary data
     directory): time, server CPU, peak RSS growth against the body (Benchmarks/bench_upload.py).
  h  wss (issue 29): one room, 1,000 and 10,000 wss viewers, 10 rounds, ours against the lws
     reference over TLS (same certificate) and against our own plain-ws run, interleaved; then a
     wss join storm of 10,000 (Benchmarks/bench_tls.py).
  g  shutdown with 10,000 viewers: seconds from SIGTERM to exit, server CPU; against --baseline-bin
     (Benchmarks/bench_shutdown.py). Only when asked for (--scenarios g).
The load generator is our own Benchmarks/loadgen/ldgen.c (epoll, libc and OpenSSL for --tls).
"""
import argparse, json, os, re, resource, signal, socket, statistics, subprocess, sys, time
import urllib.request

import bench_loop  # issue 17: the floor, b against a baseline, b2, per-side arguments, perf
import bench_targets  # issue 17: every target in one closing table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "Benchmarks", ".build")
LDGEN = os.path.join(BUILD, "ldgen")
REF = os.path.join(BUILD, "lws_fanout")
SERVER = os.path.join(ROOT, ".build", "release", "live-draw")
# ../shared sits beside the checkout (as in CI); LWS_FANOUT_SRC points elsewhere.
REF_SRC = os.environ.get("LWS_FANOUT_SRC", os.path.join(ROOT, "..", "shared", "bench", "reference-lws", "lws_fanout.c"))
SRV_CPU, GEN_CPU = "0", "1"
SPIN_US = 2000  # ldgen busy-polls this long after each event (as the shared yardstick command does)
procs = []


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def build(skip_swift):
    os.makedirs(BUILD, exist_ok=True)
    if not skip_swift:
        subprocess.run(["swift", "build", "-c", "release", "--product", "live-draw"], cwd=ROOT, check=True)
    cflags = ["-O2", "-g", "-Wall", "-Wextra", "-Wno-unused-parameter", "-Wno-sign-compare"]
    subprocess.run(["gcc", *cflags, "-o", LDGEN, os.path.join(ROOT, "Benchmarks/loadgen/ldgen.c"), "-lssl", "-lcrypto"],
                   check=True)
    if os.path.exists(REF_SRC):
        pc = lambda f: subprocess.run(["pkg-config", f, "libwebsockets"], capture_output=True, text=True,
                                      check=True).stdout.split()
        subprocess.run(["gcc", "-O2", "-g", *pc("--cflags"), "-o", REF, REF_SRC, *pc("--libs")], check=True)
    else:
        log(f"reference source {REF_SRC} not found: scenario a runs without the reference")


def raise_nofile(want=25000):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, hard), max(want, hard)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        log(f"note: RLIMIT_NOFILE is {soft} (hard limit; < {want}); fine for <= {soft - 100} clients per process")
    return soft


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kill(p):
    if p and p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            p.kill(); p.wait()
    if p in procs:
        procs.remove(p)


def start_ours(interval_ms, extra=(), data_dir="off", server=None):
    # Scenarios b and e create 1,000 rooms from this one address: lift the per-address budget.
    # 19,700 connections: b2 and a at 19,000 hold 19,000 viewers and still need room for the
    # trigger's requests and GET /metrics (the process may open 20,000 descriptors here).
    args = ["taskset", "-c", SRV_CPU, server or SERVER, "--port", "0", "--round-interval-ms", str(interval_ms),
            "--data-dir", data_dir, "--log-level", "notice", "--max-connections", "19700",
            "--room-creation-burst", "1000000", *bench_loop.server_args(server), *extra]
    # No 3-2-1 before round 1: the runs time the rounds. An environment variable, not a flag, so a
    # baseline binary from before --countdown-ms still starts (it ignores the variable).
    env = {**os.environ, "LIVE_DRAW_COUNTDOWN_MS": "0"}
    p = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    procs.append(p)
    port = key = None
    deadline = time.time() + 20
    while time.time() < deadline and (port is None or key is None):
        line = p.stdout.readline()
        if not line:
            break
        m = re.search(r"listening on https?://[^:]+:(\d+)", line)
        if m: port = int(m.group(1))
        m = re.search(r"#key=([0-9a-f]{48})", line)
        if m: key = m.group(1)
    if port is None:
        kill(p); raise RuntimeError("live-draw did not print its banner")
    # Keep draining its output so a chatty log never blocks the server on a full pipe.
    import threading
    threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
    p.lobby_key = key
    return p, port


def start_ref():
    port = free_port()
    p = subprocess.Popen(["taskset", "-c", SRV_CPU, REF, "--port", str(port)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    procs.append(p)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close(); break
        except OSError:
            time.sleep(0.05)
    return p, port


def api(port, method, path, body=None, key=None, tls=False):
    """One API request; over https (the bench's own certificate, not verified) with `tls`."""
    data = json.dumps(body).encode() if body is not None else b""
    req = urllib.request.Request(f"{'https' if tls else 'http'}://127.0.0.1:{port}{path}",
                                 data=data if method == "POST" else None, method=method)
    if method == "POST":
        req.add_header("Content-Type", "application/json")
    if key:
        req.add_header("Authorization", f"Bearer {key}")
    ctx = None
    if tls:
        import ssl
        ctx = ssl.create_default_context()
        ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    with urllib.request.urlopen(req, timeout=10, context=ctx) as r:
        return r.read().decode()


def ldgen(port, pid, clients, path, expect, trigger, rooms=1, extra=(), timeout=60):
    args = ["taskset", "-c", GEN_CPU, LDGEN, "--port", str(port), "--path", path, "--rooms", str(rooms),
            "--clients", str(clients), "--expect", str(expect), "--server-pid", str(pid),
            "--timeout", str(timeout), "--spin-us", str(SPIN_US), *extra]
    if trigger:
        args += ["--trigger-cmd", trigger]
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout + 120)
    if r.returncode != 0:
        raise RuntimeError(f"ldgen failed: {r.stderr}")
    lines = r.stdout.strip().splitlines()
    res = json.loads(lines[0])
    if len(lines) > 1:
        res.update(json.loads(lines[1]))
    return res


def derive(r):
    conn = max(r["connected"], 1)
    r["rss_per_conn_kib"] = (r["server_rss1_kib"] - r["server_rss0_kib"]) / conn
    r["cpu_us_per_msg"] = r["server_cpu_s"] * 1e6 / max(r["delivered"], 1)
    r["cpu_us_per_any_msg"] = r["server_cpu_s"] * 1e6 / max(r["delivered"] + r["other_msgs_window"], 1)
    r["gen_cpu_us_per_msg"] = r["gen_cpu_window_s"] * 1e6 / max(r["delivered"], 1)
    # Share of its CPU the generator used while messages flowed: near 100% would mean it is the bottleneck.
    r["gen_busy_pct"] = 100 * r["gen_cpu_window_s"] * 1e3 / max(r["window_ms"], 1)
    return r


def run_a_ours(n, interval=100, rounds=10, server=None, perf_label=None):
    p, port = start_ours(interval, server=server)
    try:
        key = json.loads(api(port, "POST", "/api/rooms", {"name": "r1"}))["hostKey"]
        # --perf-dir: the draw only (its 10 rounds take about a second), not the connects, nor the
        # closes when the server is stopped right after it
        trig = bench_loop.perf_prefix(p.pid, perf_label, seconds=0.9) if perf_label else ""
        trig += (f"curl -s -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer {key}' "
                f"http://127.0.0.1:{port}/api/rooms/r1/draws")
        # The page's offer: v2 from a server that has it, v1 from an older (baseline) one.
        return derive(ldgen(port, p.pid, n, "/ws/r1", rounds, trig,
                            extra=["--subprotocol", "live-draw.v2, live-draw.v1"]))
    finally:
        kill(p)


def run_a_ref(n, interval=100, rounds=10):
    p, port = start_ref()
    try:
        trig = f"curl -s 'http://127.0.0.1:{port}/burst?room=r&count={rounds}&interval_ms={interval}'"
        return derive(ldgen(port, p.pid, n, "/ws/r", rounds, trig))
    finally:
        kill(p)


COLS = [("connect_ms", "connect ms", "{:.0f}"), ("lat_p50_ms", "p50 ms", "{:.1f}"),
        ("lat_p99_ms", "p99 ms", "{:.1f}"), ("lat_max_ms", "max ms", "{:.1f}"),
        ("spread_p50_ms", "spread p50", "{:.1f}"), ("spread_max_ms", "spread max", "{:.1f}"),
        ("lost", "lost", "{:.0f}"), ("rss_per_conn_kib", "RSS KiB/conn", "{:.2f}"),
        ("cpu_us_per_msg", "srv CPU us/round msg", "{:.2f}"),
        ("cpu_us_per_any_msg", "srv CPU us/any msg", "{:.2f}"), ("gen_cpu_us_per_msg", "gen CPU us/msg", "{:.2f}"),
        ("gen_cpu_s", "gen CPU s", "{:.2f}"), ("gen_busy_pct", "gen busy %", "{:.0f}")]


def median_of(rs):
    out = {}
    for k in rs[0]:
        v = [r[k] for r in rs]
        out[k] = statistics.median(v) if all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                             for x in v) else v[0]
    return out


def table(rows):
    head = ["scenario", "server", "N"] + [c[1] for c in COLS]
    lines = [head]
    for label, server, n, r in rows:
        lines.append([label, server, str(n)] + [c[2].format(r[c[0]]) for c in COLS])
    w = [max(len(l[i]) for l in lines) for i in range(len(head))]
    return "\n".join("  ".join(x.rjust(w[i]) for i, x in enumerate(l)) for l in lines)


def scenario_a(ns, repeats, with_ref, baseline=None, with_floor=False):
    """Returns the table rows, ours/reference ratios and ours/baseline ratios (when a baseline
    binary is given: an older live-draw, run interleaved with ours so both see the same noise)."""
    rows, ratios, before_after, ratios_floor = [], [], [], []
    for n in ns:
        ours, ref, base, floor = [], [], [], []
        for i in range(repeats):  # interleave: ours, baseline, ref, ours, baseline, ref ...
            log(f"[a] N={n} repeat {i + 1}/{repeats}: live-draw")
            ours.append(run_a_ours(n, perf_label=f"a-{n}-ours-{i + 1}")); time.sleep(1)
            if baseline:
                log(f"[a] N={n} repeat {i + 1}/{repeats}: baseline {baseline}")
                base.append(run_a_ours(n, server=baseline)); time.sleep(1)
            if with_ref:
                log(f"[a] N={n} repeat {i + 1}/{repeats}: lws_fanout")
                ref.append(run_a_ref(n)); time.sleep(1)
            if with_floor:
                log(f"[a] N={n} repeat {i + 1}/{repeats}: epoll floor")
                floor.append(bench_loop.run_a_floor(n)); time.sleep(1)
        mo = median_of(ours)
        rows.append(("a", "live-draw", n, mo))
        if baseline:
            mb = median_of(base)
            rows.append(("a", "baseline", n, mb))
            qb = lambda k: mo[k] / mb[k] if mb[k] else float("nan")
            before_after.append((n, qb("lat_p99_ms"), qb("cpu_us_per_msg"), qb("rss_per_conn_kib"), mo["lost"]))
        if not with_ref:
            log(f"[a] N={n} mean latency per round (ms), live-draw: {mo['round_lat_mean_ms']}")
        if with_ref:
            mr = median_of(ref)
            rows.append(("a", "lws_fanout", n, mr))
            q = lambda k: mo[k] / mr[k] if mr[k] else float("nan")
            log(f"[a] N={n} mean latency per round (ms), live-draw: {mo['round_lat_mean_ms']}")
            log(f"[a] N={n} mean latency per round (ms), lws_fanout: {mr['round_lat_mean_ms']}")
            ratios.append((n, q("lat_p99_ms"), q("cpu_us_per_msg"), q("rss_per_conn_kib"), mo["lost"],
                           q("cpu_us_per_any_msg")))
        if with_floor:
            mf = median_of(floor)
            rows.append(("a", "epoll floor", n, mf))
            qf = lambda k, m=mo: m[k] / mf[k] if mf[k] else float("nan")
            mr = median_of(ref) if with_ref else None
            ratios_floor.append((n, qf("lat_p99_ms"), qf("cpu_us_per_msg"), qf("rss_per_conn_kib"), mo["lost"],
                                 qf("lat_p99_ms", mr) if mr else float("nan"),
                                 qf("cpu_us_per_msg", mr) if mr else float("nan")))
        bench_targets.scenario_a(n, mo, median_of(ref) if with_ref else None,
                                 median_of(floor) if with_floor else None)
        log(json.dumps({"n": n, "ours": ours, "ref": ref, "baseline": base, "floor": floor}))
    return rows, ratios, before_after, ratios_floor


def histogram_quantile(buckets, q):
    """buckets: sorted list of (le, cumulative count); Prometheus-style linear interpolation."""
    total = buckets[-1][1]
    if total == 0:
        return float("nan")
    rank = q * total
    prev_le, prev_c = 0.0, 0
    for le, c in buckets:
        if c >= rank:
            if le == float("inf"):
                return prev_le
            return prev_le + (le - prev_le) * ((rank - prev_c) / max(c - prev_c, 1))
        prev_le, prev_c = le, c
    return prev_le


def buckets_of(text, label):
    """The cumulative histogram buckets of `label` in a /metrics text: [(le seconds, count)], sorted."""
    b = []
    for m in re.finditer(r'^' + label + r'_bucket\{[^}]*le="([^"]+)"[^}]*\}\s+(\S+)', text, re.M):
        b.append((float("inf") if m.group(1) == "+Inf" else float(m.group(1)), float(m.group(2))))
    b.sort()
    return b


def lateness(port):
    text = api(port, "GET", "/metrics")
    b = buckets_of(text, "livedraw_round_lateness_seconds")
    cnt = b[-1][1] if b else 0
    # The service loop's turns of 5 ms and more of CPU (NaN from a binary without the metric).
    turns = buckets_of(text, "livedraw_service_turn_cpu_seconds")
    over = lambda le: (turns[-1][1] - next((c for l, c in turns if l == le), float("nan"))) if turns else float("nan")
    return cnt, histogram_quantile(b, .5) * 1e3 if b else float("nan"), \
        histogram_quantile(b, .99) * 1e3 if b else float("nan"), b, over(0.005), over(0.01)


def scenario_b(rooms, per_room, interval=400, server=None, perf_label=None, extra=()):
    p, port = start_ours(interval, extra=extra, server=server)
    try:
        keys = []
        for i in range(rooms):
            keys.append(json.loads(api(port, "POST", "/api/rooms", {"name": f"r{i}"}))["hostKey"])
        trig_file = os.path.join(BUILD, "b-trigger.sh")
        with open(trig_file, "w") as f:
            f.write("#!/bin/bash\n")
            for i, k in enumerate(keys):
                f.write(f"curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer {k}' "
                        f"http://127.0.0.1:{port}/api/rooms/r{i}/draws &\n")
                if i % 50 == 49:
                    f.write("wait\n")
            f.write("wait\n")
        # The timer probe sleeps on the server's core through the draws: how late a timer with
        # nothing else to do wakes up there, in this very run (bench_loop.probe_prefix).
        probe_out = os.path.join(BUILD, "b-probe.json")
        if os.path.exists(probe_out):
            os.remove(probe_out)
        trig = bench_loop.perf_prefix(p.pid, perf_label) + bench_loop.probe_prefix(probe_out) + f"bash {trig_file}"
        r = derive(ldgen(port, p.pid, rooms * per_room, "/ws/r%d", 10, trig, rooms=rooms,
                         extra=["--subprotocol", "live-draw.v1"], timeout=90))
        cnt, p50, p99, buckets, turns5, turns10 = lateness(port)
        log("[b] lateness buckets (le seconds, cumulative):", buckets)
        probe = bench_loop.probe_result(probe_out)
        log("[b] timer probe:", probe)
        r.update(lateness_n=cnt, lateness_p50_ms=p50, lateness_p99_ms=p99, turns_over_5ms=turns5, turns_over_10ms=turns10,
                 probe_p50_ms=probe["p50_ms"], probe_p99_ms=probe["p99_ms"], probe_max_ms=probe["max_ms"])
        return r
    finally:
        kill(p)


def gap_stats(lines, gap, rounds=10):
    """Gap deviations (ms) from ldgen --gaps-out lines, for every step and per kind of step."""
    recv, stamp, kind, starts = [], [], [], []
    for line in lines:
        parts = line.split()
        if parts[0] == "started":
            starts.append(float(parts[1]))
            continue
        recv.append(float(parts[0]))
        stamp.append(float(parts[1]))
        k = int(parts[2])
        kind.append("lead" if k == 1 else "result" if k == rounds + 1 else "rounds")
    pct = lambda v, q: sorted(v)[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] if v else float("nan")
    dev = [abs(g - gap) for g in recv]
    sdev = [abs(g - gap) for g in stamp]
    out = {"gaps": len(recv), "gap_dev_p50_ms": pct(dev, .5), "gap_dev_p99_ms": pct(dev, .99),
           "gap_dev_max_ms": max(dev, default=float("nan")), "gap_min_ms": min(recv, default=float("nan")),
           "bunched": sum(1 for g in recv if g < gap / 2),
           "stamp_gap_dev_p99_ms": pct(sdev, .99), "stamp_gap_dev_max_ms": max(sdev, default=float("nan")),
           "stamp_gap_min_ms": min(stamp, default=float("nan")),
           "started_spread_ms": (max(starts) - min(starts)) if starts else float("nan"), "starts": len(starts)}
    # started -> round 1 (the lead), round -> round, last round -> finished (which waits for the
    # result's record to be on disk).
    for name in ("lead", "rounds", "result"):
        out[f"{name}_dev_p99_ms"] = pct([d for d, k in zip(dev, kind) if k == name], .99)
        out[f"{name}_stamp_dev_p99_ms"] = pct([d for d, k in zip(sdev, kind) if k == name], .99)
    return out


def scenario_e(rooms, interval=400, spread_ms=800):
    """Every room starts its draw within a second, each with one viewer, plus the lobby, and the
    records are kept (the storage thread's group commit is part of what is measured). ldgen starts
    the draws itself, over its viewers' WebSockets, so no trigger process competes with it."""
    import shutil, tempfile
    data_dir = tempfile.mkdtemp(prefix="bench-e-")
    p, port = start_ours(interval, data_dir=data_dir)
    try:
        keys_file, gaps_file = os.path.join(BUILD, "e-keys.txt"), os.path.join(BUILD, "e-gaps.txt")
        with open(keys_file, "w") as f:
            for i in range(rooms):
                f.write(json.loads(api(port, "POST", "/api/rooms", {"name": f"r{i}"}))["hostKey"] + "\n")
            f.write(p.lobby_key + "\n")   # the lobby is the extra room, the last line
        r = derive(ldgen(port, p.pid, rooms, "/ws/r%d", 10, None, rooms=rooms, timeout=90,
                         extra=["--subprotocol", "live-draw.v1", "--gap-ms", str(interval), "--gaps-out", gaps_file,
                                "--extra-path", "/ws/lobby", "--start-keys", keys_file,
                                "--start-spread-ms", str(spread_ms)]))
        with open(gaps_file) as f:
            r.update(gap_stats([l for l in f.read().split("\n") if l.strip()], interval))
        return r
    finally:
        kill(p)
        shutil.rmtree(data_dir, ignore_errors=True)


def wait_until_running(port, room, timeout=10.0, tls=False):
    """The storm must hit a live draw: wait for the room's phase to say so (loading -> running)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (json.loads(api(port, "GET", f"/api/rooms/{room}", tls=tls)).get("draw") or {}).get("phase") == "running":
            return
        time.sleep(0.02)
    raise RuntimeError(f"the draw in {room} did not start within {timeout} s")


def scenario_c(n, interval=1000, server=None):
    p, port = start_ours(interval, server=server)
    try:
        key = json.loads(api(port, "POST", "/api/rooms", {"name": "r1"}))["hostKey"]
        api(port, "POST", "/api/rooms/r1/draws", key=key)
        wait_until_running(port, "r1")
        # --expect 1: each client's first message (the snapshot) is checked; rounds come too.
        r = ldgen(port, p.pid, n, "/ws/r1", 1, None,
                  extra=["--subprotocol", "live-draw.v1", "--match", '"type":"snapshot"',
                         "--first-type", "snapshot", "--inflight", str(n)], timeout=60)
        snap = json.loads(api(port, "GET", "/api/rooms/r1"))
        r["draw_live_after"] = (snap.get("draw") or {}).get("phase")
        return derive(r)
    finally:
        kill(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenarios", default="abb2cdefuh")
    ap.add_argument("--n", default="1000,10000,19000", help="scenario a viewer counts (issue 17's targets are "
                    "at 10000 and 19000)")
    ap.add_argument("--cluster-n", default="10000", help="scenario d viewer counts (total over both nodes)")
    ap.add_argument("--repeats", type=int, default=3, help="repeats of every scenario (median reported)")
    ap.add_argument("--rooms", type=int, default=1000)
    ap.add_argument("--per-room", type=int, default=10)
    ap.add_argument("--storm", type=int, default=10000)
    ap.add_argument("--tls-n", default="1000,10000", help="scenario h: wss viewer counts (the targets are at 10000)")
    ap.add_argument("--tls-storm", type=int, default=10000, help="scenario h: clients of the wss join storm (0: none)")
    ap.add_argument("--start-rooms", type=int, default=1000, help="scenario e: rooms starting at once (plus the lobby)")
    ap.add_argument("--entrant-viewers", type=int, default=10000, help="scenario f: viewers of the room")
    ap.add_argument("--shutdown-viewers", type=int, default=10000, help="scenario g: viewers connected at SIGTERM")
    ap.add_argument("--entrants", type=int, default=100000, help="scenario f: the big list's entrants (vs 4); scenario u: the uploaded lists' entrants")
    ap.add_argument("--no-ref", action="store_true")
    ap.add_argument("--spin-us", type=float, default=2000,
                    help="ldgen busy-poll window after each event (0: always sleep in epoll_wait; the "
                         "server then pays the generator's wake-ups, about +30%% CPU per message)")
    ap.add_argument("--skip-swift-build", action="store_true")
    ap.add_argument("--server-cpu", choices=("0", "1"), default="0",
                    help="the CPU the servers (and the timer probe) are pinned to; the load generator gets "
                         "the other. On this sandbox CPU 0 also runs its agent and a DAMON kernel thread "
                         "(Benchmarks/README.md, \"Event loop, session 7\")")
    ap.add_argument("--baseline-bin", help="scenarios a and u: an older live-draw binary (e.g. a release build of "
                    "the previous main) run interleaved with ours; prints ours/baseline ratios")
    bench_loop.add_options(ap)
    a = ap.parse_args()
    bench_loop.attach(sys.modules[__name__])
    bench_loop.configure(a)
    global SPIN_US, SRV_CPU, GEN_CPU
    SPIN_US = a.spin_us
    SRV_CPU, GEN_CPU = a.server_cpu, "1" if a.server_cpu == "0" else "0"
    raise_nofile()
    build(a.skip_swift_build)
    with_ref = not a.no_ref and os.path.exists(REF)
    with_floor = "a" in a.scenarios and not a.no_floor and bench_loop.build_floor()
    if "b" in a.scenarios or a.b2:
        bench_loop.build_probe()
    out = []
    try:
        if "a" in a.scenarios:
            rows, ratios, before_after, ratios_floor = scenario_a([int(x) for x in a.n.split(",")], a.repeats,
                                                                  with_ref, a.baseline_bin, with_floor)
            out.append(f"Scenario a: one room, 10 rounds 100 ms apart, server on CPU {SRV_CPU}, "
                       f"ldgen on CPU {GEN_CPU} (spin {SPIN_US:g} us); median of {a.repeats}")
            out.append(table(rows))
            if ratios:
                out.append("\nours/reference   (targets at 10k: p99 <= 1.25, CPU/msg <= 1.25, RSS/conn <= 1.0, loss 0)")
                out.append("     N   p99  CPU/round msg  RSS/conn  lost  (CPU/any msg)")
                for n, a1, a2, a3, lost, a4 in ratios:
                    out.append(f"{n:6d}  {a1:5.2f}  {a2:13.2f}  {a3:8.2f}  {lost:4.0f}  ({a4:.2f})")
            if before_after:
                out.append(f"\nours/baseline ({a.baseline_bin}; same run, interleaved)")
                out.append("     N   p99  CPU/round msg  RSS/conn  lost")
                for n, b1, b2, b3, lost in before_after:
                    out.append(f"{n:6d}  {b1:5.2f}  {b2:13.2f}  {b3:8.2f}  {lost:4.0f}")
            if ratios_floor:
                out.extend(bench_loop.floor_ratio_lines(ratios_floor))
        if "b" in a.scenarios:
            out.extend(bench_loop.scenario_b_runs("b", a.rooms, a.per_room, a.repeats, a.baseline_bin))
        if a.b2:
            out.extend(bench_loop.scenario_b_runs("b2", a.b2_rooms, a.per_room, a.repeats, a.baseline_bin))
        if "c" in a.scenarios:
            out.extend(bench_loop.scenario_c_runs(a.storm, a.repeats, with_ref, a.baseline_bin))
        if "d" in a.scenarios:
            import bench_cluster
            bench_cluster.B = sys.modules[__name__]
            out.extend(bench_cluster.scenario([int(x) for x in a.cluster_n.split(",")], a.repeats))
        if "e" in a.scenarios:
            runs = []
            for i in range(a.repeats):
                log(f"[e] {a.start_rooms} rooms + the lobby starting at once, repeat {i + 1}/{a.repeats}")
                runs.append(scenario_e(a.start_rooms)); time.sleep(1)
                log(json.dumps(runs[-1]))
            r = median_of(runs)
            each = lambda k, f="{:.1f}": " / ".join(f.format(x[k]) for x in runs)
            out.append(f"\nScenario e: {a.start_rooms} rooms + the lobby, one viewer each, every draw started within "
                       f"{r['starts_spread_ms']:.0f} ms ({r['starts_sent']:.0f} starts), 400 ms rounds, records kept; "
                       f"median of {a.repeats}")
            out.append(f"gaps between consecutive steps as viewers received them ({r['gaps']:.0f} per run): "
                       f"|gap - 400 ms| p50 {r['gap_dev_p50_ms']:.2f} ms  p99 {r['gap_dev_p99_ms']:.2f} ms  "
                       f"max {r['gap_dev_max_ms']:.2f} ms  (target p99 <= 20 ms)")
            out.append(f"  shortest gap {r['gap_min_ms']:.1f} ms, gaps under 200 ms {r['bunched']:.0f};  by the server's "
                       f"stamps: p99 {r['stamp_gap_dev_p99_ms']:.2f} ms, max {r['stamp_gap_dev_max_ms']:.2f} ms, shortest "
                       f"{r['stamp_gap_min_ms']:.1f} ms;  `started` received over {r['started_spread_ms']:.0f} ms "
                       f"({r['starts']:.0f}); lost {r['lost']:.0f}")
            out.append(f"  p99 by step, received (server stamps): started -> round 1 {r['lead_dev_p99_ms']:.2f} "
                       f"({r['lead_stamp_dev_p99_ms']:.2f}) ms;  round -> round {r['rounds_dev_p99_ms']:.2f} "
                       f"({r['rounds_stamp_dev_p99_ms']:.2f}) ms;  last round -> finished {r['result_dev_p99_ms']:.2f} "
                       f"({r['result_stamp_dev_p99_ms']:.2f}) ms")
            out.append(f"  each run: p99 {each('gap_dev_p99_ms', '{:.2f}')} ms;  max {each('gap_dev_max_ms', '{:.2f}')} ms")
        if "f" in a.scenarios:
            import bench_entrants
            out += bench_entrants.scenario_f(sys.modules[__name__], a.entrant_viewers, a.entrants, a.repeats)
        if "u" in a.scenarios:
            import bench_upload
            out += bench_upload.scenario_u(sys.modules[__name__], a.entrants, a.repeats, a.baseline_bin)
        if "h" in a.scenarios:
            import bench_tls
            bench_tls.B = sys.modules[__name__]
            out += bench_tls.scenario([int(x) for x in a.tls_n.split(",") if x], a.tls_storm, a.repeats, with_ref,
                                      a.baseline_bin)
        if "g" in a.scenarios:
            import bench_shutdown
            out += bench_shutdown.scenario_g(sys.modules[__name__], a.shutdown_viewers, a.repeats, a.baseline_bin)
    finally:
        for p in list(procs):
            kill(p)
    out.extend(bench_targets.lines())
    print("\n".join(out))


if __name__ == "__main__":
    main()
