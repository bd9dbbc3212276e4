"""Issue 17's additions to bench.py, kept in their own module so the driver's other scenarios can
change beside them: the plain-epoll floor in scenario a, scenario b against a baseline binary
(interleaved, with CPU and lateness ratios), scenario b2 (1,900 rooms x 10), scenario c's join
storm against the lws reference and the baseline (connect-time ratios), extra server arguments
per side (`--ours-args "--event-loop poll"`), and `perf record` of the server during b.
"""
import os, shlex, socket, subprocess, time

import bench_targets

# bench.py itself (its __main__ module, so that its globals are the ones in use); set by attach().
bench = None


def attach(module):
    global bench, FLOOR, PROBE
    bench = module
    FLOOR = os.path.join(bench.BUILD, "epoll_fanout")
    PROBE = os.path.join(bench.BUILD, "timer_probe")

FLOOR = PROBE = None
PROBE_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe", "timer_probe.c")
# ../shared sits beside the checkout (as in CI); FLOOR_EPOLL_SRC points elsewhere.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR_SRC = os.environ.get("FLOOR_EPOLL_SRC", os.path.join(ROOT, "..", "shared", "bench", "floor-epoll", "epoll_fanout.c"))
# Extra live-draw arguments: ours, and the baseline's (--ours-args / --baseline-args).
ARGS = {"ours": [], "baseline": []}
PERF = {"dir": None, "seconds": 7}
# Scenarios b/b2 also run ours with --realtime-priority at this priority (0: not), session 7.
REALTIME = {"priority": 0}
# Scenario b also runs ours on lws' poll loop (--no-b-poll: not), the issue's CPU comparison.
POLL = {"b": True}


def realtime_permitted():
    """Whether this process may give a thread SCHED_FIFO (CAP_SYS_NICE or ulimit -r)."""
    try:
        return subprocess.run(["chrt", "-f", "1", "true"], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


def add_options(ap):
    ap.add_argument("--ours-args", default="", help="extra live-draw arguments for our binary, e.g. "
                    "\"--event-loop poll\" (shell-quoted)")
    ap.add_argument("--baseline-args", default="", help="extra arguments for the --baseline-bin binary")
    ap.add_argument("--no-floor", action="store_true", help="scenario a: skip the plain-epoll floor")
    ap.add_argument("--perf-dir", help="scenarios a, b and b2: `perf record -g` the server during the draws into "
                    "DIR/a-<N>-<side>-<run>.data and DIR/b-<side>-<run>.data (`perf report -i FILE --no-children --sort dso,sym`)")
    ap.add_argument("--b2-rooms", type=int, default=1900, help="scenario b2: rooms of 10 viewers")
    ap.add_argument("--no-b-poll", action="store_true",
                    help="scenario b: do not also run our binary on lws' poll loop (--event-loop poll), the "
                         "stand-in for the binary before issue 17 in its CPU target")
    ap.add_argument("--b-realtime", type=int, default=10, metavar="N",
                    help="scenarios b/b2: also run our binary with --realtime-priority N, interleaved, where this "
                         "machine grants real-time scheduling (0: don't)")


def configure(a):
    """After parsing: remembers the per-side arguments; b2 is taken out of the scenario letters
    (so that `"b" in a.scenarios` keeps meaning scenario b)."""
    ARGS["ours"], ARGS["baseline"] = shlex.split(a.ours_args), shlex.split(a.baseline_args)
    REALTIME["priority"] = a.b_realtime if a.b_realtime > 0 and realtime_permitted() else 0
    PERF["dir"] = a.perf_dir
    POLL["b"] = not a.no_b_poll
    if a.perf_dir:
        os.makedirs(a.perf_dir, exist_ok=True)
    a.b2 = "b2" in a.scenarios
    a.scenarios = a.scenarios.replace("b2", "")


def server_args(server):
    """The extra arguments of the binary `server` (None: ours)."""
    return ARGS["baseline"] if server else ARGS["ours"]


def build_floor():
    if not os.path.exists(FLOOR_SRC):
        bench.log(f"floor source {FLOOR_SRC} not found: scenario a runs without the floor")
        return False
    subprocess.run(["gcc", "-O2", "-g", "-Wall", "-o", FLOOR, FLOOR_SRC], check=True)
    return True


def run_a_floor(n, interval=100, rounds=10):
    """The plain-epoll broadcaster: same URL and /burst protocol as the lws reference."""
    port = bench.free_port()
    p = subprocess.Popen(["taskset", "-c", bench.SRV_CPU, FLOOR, "--port", str(port)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    bench.procs.append(p)
    try:
        wait_listening(port)
        trig = f"curl -s 'http://127.0.0.1:{port}/burst?room=r&count={rounds}&interval_ms={interval}'"
        return bench.derive(bench.ldgen(port, p.pid, n, "/ws/r", rounds, trig))
    finally:
        bench.kill(p)


def wait_listening(port):
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close(); return
        except OSError:
            time.sleep(0.05)


def build_probe():
    subprocess.run(["gcc", "-O2", "-g", "-Wall", "-o", PROBE, PROBE_SRC], check=True)


def probe_prefix(out):
    """A shell command that starts the timer probe on the server's core for the draws' duration
    (as long as `perf record` would run), in the background, to put before the trigger."""
    return f"(taskset -c {bench.SRV_CPU} {shlex.quote(PROBE)} {PERF['seconds']} > {shlex.quote(out)} &); "


def probe_result(out, timeout=15.0):
    """The probe's JSON line, once it has written it (it ends PERF['seconds'] after the trigger)."""
    import json
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(out) as f:
                text = f.read()
            if text.endswith("\n"):
                return json.loads(text)
        except FileNotFoundError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the timer probe wrote nothing to {out}")


def perf_prefix(pid, label, seconds=None):
    """A shell command that starts `perf record` on the server for the draws' duration (b's by
    default), in the background, to put before the trigger; empty without --perf-dir."""
    if not PERF["dir"]:
        return ""
    out = os.path.join(PERF["dir"], f"{label}.data")
    return (f"(perf record -F 999 -g -o {shlex.quote(out)} -p {pid} -- sleep {seconds or PERF['seconds']} "
            f">/dev/null 2>&1 &); ")


def floor_ratio_lines(ratios_floor):
    out = ["\nours/floor (plain epoll, no WebSocket library; same run)   (target at 10k: CPU/msg <= 1.15)",
           "     N   p99  CPU/round msg  RSS/conn  lost  (reference/floor: p99, CPU/round msg)"]
    for n, a1, a2, a3, lost, r1, r2 in ratios_floor:
        out.append(f"{n:6d}  {a1:5.2f}  {a2:13.2f}  {a3:8.2f}  {lost:4.0f}  ({r1:.2f}, {r2:.2f})")
    return out


def b_variants(label, baseline):
    """The servers scenario b (or b2) runs, interleaved in each repeat: (name, shown as, kwargs
    for bench.scenario_b). Ours always; ours under --realtime-priority where the machine allows it;
    in b, ours on lws' own poll loop (--b-poll), which stands in for the binary before issue 17 for
    the CPU target; the --baseline-bin binary when given."""
    out = [("live-draw", "live-draw", {})]
    priority = REALTIME["priority"]
    if priority and "--realtime-priority" not in ARGS["ours"]:
        out.append(("realtime", f"live-draw --realtime-priority {priority}",
                    {"extra": ["--realtime-priority", str(priority)]}))
    if POLL["b"] and label == "b" and "--event-loop" not in ARGS["ours"]:
        out.append(("poll loop", "live-draw --event-loop poll", {"extra": ["--event-loop", "poll"]}))
    if baseline:
        out.append(("baseline", "baseline", {"server": baseline}))
    return out


def scenario_b_runs(label, rooms, per_room, repeats, baseline):
    """Scenario b (or b2), every variant interleaved per repeat (b_variants); the table lines. The
    issue's targets go to bench_targets as they are measured."""
    variants = b_variants(label, baseline)
    runs = {name: [] for name, _, _ in variants}
    for i in range(repeats):
        for name, shown, kwargs in variants:
            bench.log(f"[{label}] {rooms} rooms x {per_room} viewers, repeat {i + 1}/{repeats}: {shown}")
            side = {"live-draw": "ours", "poll loop": "poll"}.get(name, name)
            runs[name].append(bench.scenario_b(rooms, per_room, perf_label=f"{label}-{side}-{i + 1}", **kwargs))
            time.sleep(1)
    out = [f"\nScenario {label}: {rooms} rooms x {per_room} viewers, all drawing at once, 400 ms rounds; "
           f"median of {repeats}"]
    medians = {name: bench.median_of(r) for name, r in runs.items()}
    out.append(bench.table([(label, name, rooms * per_room, medians[name]) for name, _, _ in variants]))
    target = 5 if label == "b" else 10
    for name, shown, _ in variants:
        rs, r = runs[name], medians[name]
        each = lambda k, f: " / ".join(f.format(x[k]) for x in rs)
        out.append(f"{shown}: round lateness vs due time ({r['lateness_n']:.0f} rounds per run): p50 "
                   f"{r['lateness_p50_ms']:.2f} ms  p99 {r['lateness_p99_ms']:.2f} ms (target p99 <= {target} ms);  "
                   f"server CPU {r['server_cpu_s']:.2f} s;  lost {r['lost']:.0f}")
        out.append(f"  each run: p99 {each('lateness_p99_ms', '{:.2f}')} ms;  server CPU "
                   f"{each('server_cpu_s', '{:.2f}')} s")
        out.append(f"  service turns (whole run, connects and closes too) over 5 ms of CPU: "
                   f"{each('turns_over_5ms', '{:.0f}')};  over 10 ms: {each('turns_over_10ms', '{:.0f}')}")
        out.append(f"  timer probe on the server's core, same runs (the machine's floor for a timer): p99 "
                   f"{each('probe_p99_ms', '{:.2f}')} ms, max {each('probe_max_ms', '{:.1f}')} ms;  "
                   f"ours/probe p99 {r['lateness_p99_ms'] / max(r['probe_p99_ms'], 1e-9):.2f}")
        if name in ("live-draw", "realtime"):
            bench_targets.add(f"{label}: round lateness p99, {shown}", r["lateness_p99_ms"], "{:.2f} ms",
                              f"<= {target} ms", r["lateness_p99_ms"] <= target, each("lateness_p99_ms", "{:.2f}"))
            if label == "b2":
                bench_targets.add(f"b2: lost, {shown}", r["lost"], "{:.0f}", "0", r["lost"] == 0)
    if "realtime" in runs:
        out.append("  (under --realtime-priority the probe runs below the server, so it reads late whenever the "
                   "server is busy: its figures there are not the floor)")
    mo = medians["live-draw"]
    for name in ("poll loop", "baseline"):
        if name not in medians:
            continue
        mb = medians[name]
        cpu = mo["server_cpu_s"] / mb["server_cpu_s"]
        # The CPU target is b against the loop before it (the poll loop), not any baseline.
        is_target = name == "poll loop" and label == "b"
        out.append(f"ours/{name}: lateness p99 {mo['lateness_p99_ms'] / mb['lateness_p99_ms']:.2f}, "
                   f"server CPU {cpu:.2f}" + ("  (target <= 0.50)" if is_target else ""))
        if is_target:
            bench_targets.add("b: server CPU during the draws, ours / lws' poll loop", cpu, "{:.2f}x", "<= 0.50x",
                              cpu <= 0.5, f"{mo['server_cpu_s']:.2f} s vs {mb['server_cpu_s']:.2f} s")
    for name, rs in runs.items():
        bench.log(f"[{label}] raw {name}: {rs}")
    return out


def scenario_c_ref(n):
    """The same join storm against the lws reference: N clients with no in-flight cap. It sends
    nothing on connect, so once all are in, the trigger sends one message to each (the generator
    waits for one per client; only the connect time is compared)."""
    p, port = bench.start_ref()
    try:
        trig = f"curl -s -o /dev/null 'http://127.0.0.1:{port}/burst?room=r&count=1&interval_ms=100'"
        return bench.derive(bench.ldgen(port, p.pid, n, "/ws/r", 1, trig, extra=["--inflight", str(n)], timeout=60))
    finally:
        bench.kill(p)


def scenario_c_runs(n, repeats, with_ref, baseline):
    """Scenario c: ours, the baseline and the reference interleaved per repeat; the table lines."""
    ours, base, ref = [], [], []
    for i in range(repeats):
        bench.log(f"[c] join storm of {n}, repeat {i + 1}/{repeats}: live-draw")
        ours.append(bench.scenario_c(n)); time.sleep(1)
        if baseline:
            bench.log(f"[c] repeat {i + 1}/{repeats}: baseline {baseline}")
            base.append(bench.scenario_c(n, server=baseline)); time.sleep(1)
        if with_ref:
            bench.log(f"[c] repeat {i + 1}/{repeats}: lws_fanout")
            ref.append(scenario_c_ref(n)); time.sleep(1)
    r = bench.median_of(ours)
    each = lambda runs, k, f="{:.0f}": " / ".join(f.format(x[k]) for x in runs)
    out = [f"\nScenario c: join storm, {n} clients connect at once while a draw is live; "
           f"median of {repeats} (each run after the slash)",
           f"connected {r['connected']:.0f} ({each(ours, 'connected')})  "
           f"failed connects {r['failed_connects']:.0f} ({each(ours, 'failed_connects')})  "
           f"closed early {r['closed_early']:.0f} ({each(ours, 'closed_early')})  "
           f"connect {r['connect_ms']:.0f} ms ({each(ours, 'connect_ms')})",
           f"first message a snapshot of r1: {r['first_ok']:.0f} ok / {r['first_bad']:.0f} bad "
           f"({each(ours, 'first_ok')} ok; {each(ours, 'first_bad')} bad)  "
           f"draw phase after: {' / '.join(str(x['draw_live_after']) for x in ours)}  "
           f"RSS/conn {r['rss_per_conn_kib']:.2f} KiB  (target: 0 failed)"]
    for name, runs in (("baseline", base), ("lws_fanout", ref)):
        if not runs:
            continue
        m = bench.median_of(runs)
        ratio = r['connect_ms'] / max(m['connect_ms'], 1e-9)
        out.append(f"{name}: connected {m['connected']:.0f}  failed connects {m['failed_connects']:.0f}  "
                   f"connect {m['connect_ms']:.0f} ms ({each(runs, 'connect_ms')});  "
                   f"ours/{name} connect time {ratio:.2f}" + ("  (target <= 1.0)" if name == "lws_fanout" else ""))
        if name == "lws_fanout":
            bench_targets.add(f"c: join storm of {n:,}, connect time ours / lws reference", ratio, "{:.2f}x",
                              "<= 1.00x", ratio <= 1.0 and r["failed_connects"] == 0,
                              f"{r['connect_ms']:.0f} vs {m['connect_ms']:.0f} ms, {r['failed_connects']:.0f} failed")
    return out
