"""Scenario g (issue 17, session 7): shutting down with N viewers connected.

SIGTERM with every viewer in the lobby: the server closes them all with 1001 (each with a close
deadline) and exits once they are gone. Measures the time from SIGTERM to the process's exit and
the server's whole CPU time (from the kernel's accounting of the reaped child), ours and
`--baseline-bin` interleaved. Before session 7 every close deadline was an lws timeout, inserted
into lws' sorted timer list by a walk from its head: O(n²) over a shutdown.
"""
import resource, statistics, time


def one(bench, n, server=None):
    p, port = bench.start_ours(400, server=server)
    mark = f"{bench.BUILD}/g-sigterm"
    trig = f"sleep 0.3; date +%s.%N > {mark}; kill -TERM {p.pid}"
    try:
        # The generator expects a round that never comes; it ends when the server closes everyone.
        bench.ldgen(port, p.pid, n, "/ws/lobby", 1, trig, timeout=20,
                    extra=["--subprotocol", "live-draw.v1"])
    except RuntimeError:
        pass
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p.wait(60)
    exited = time.time()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    bench.kill(p)
    with open(mark) as f:
        sigterm = float(f.read())
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"exit_s": exited - sigterm, "server_cpu_s": cpu}


def scenario_g(bench, n, repeats, baseline):
    ours, base = [], []
    for i in range(repeats):
        bench.log(f"[g] shutdown with {n} viewers, repeat {i + 1}/{repeats}: live-draw")
        ours.append(one(bench, n)); time.sleep(1)
        if baseline:
            bench.log(f"[g] repeat {i + 1}/{repeats}: baseline {baseline}")
            base.append(one(bench, n, server=baseline)); time.sleep(1)
    out = [f"\nScenario g: SIGTERM with {n} viewers connected; median of {repeats}"]
    for name, runs in (("live-draw", ours), ("baseline", base)):
        if runs:
            med = lambda k: statistics.median(r[k] for r in runs)
            each = lambda k: " / ".join(f"{r[k]:.2f}" for r in runs)
            out.append(f"{name}: exit {med('exit_s'):.2f} s after SIGTERM ({each('exit_s')});  "
                       f"server CPU over its life {med('server_cpu_s'):.2f} s ({each('server_cpu_s')})")
    return out
