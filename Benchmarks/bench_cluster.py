"""Scenario d of Benchmarks/bench.py (issue 14): one room, N viewers split over two cluster nodes
sharing a redis-server, against one node serving the same N, interleaved in the same run.

Everything server-side is pinned to CPU 0 (both nodes and redis-server), ldgen to CPU 1: the
two nodes then share one core, as the single node has it alone, so the comparison is of the same
total work on the same core plus what the hop costs (the publish, Redis, the second node's
receive and forward). A real deployment gives each node its own machine; this shows the hop's
price, not the cluster's capacity (docs/SCALING.md projects that).

Every delivery is timed against the message's `sentAt`, the running node's send time, carried
unchanged to the other node's viewers: for node B's viewers it includes the hop.
"""
import json, os, shutil, socket, subprocess, tempfile, time

# The driver module (Benchmarks/bench.py), set by it before scenario() runs: it runs as __main__,
# so `import bench` here would load a second copy with its own process list and settings.
B = None

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def start_redis(tmp):
    """redis-server on a free port, its files in tmp, no persistence, pinned with the servers."""
    port = B.free_port()
    p = subprocess.Popen(["taskset", "-c", B.SRV_CPU, REDIS, "--port", str(port), "--bind", "127.0.0.1",
                          "--dir", tmp, "--save", "", "--appendonly", "no"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    B.procs.append(p)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(64).startswith(b"+PONG"):
                    return p, port
        except OSError:
            time.sleep(0.05)
    B.kill(p)
    raise RuntimeError("redis-server did not answer PING within 10 s")


def _trigger(port, key, room):
    return (f"curl -s -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer {key}' "
            f"http://127.0.0.1:{port}/api/rooms/{room}/draws")


def derive_cluster(r, redis_cpu_s):
    r = B.derive(r)
    r["redis_cpu_s"] = redis_cpu_s
    r["redis_cpu_us_per_msg"] = redis_cpu_s * 1e6 / max(r["delivered"], 1) if redis_cpu_s >= 0 else float("nan")
    return r


def run_cluster(n, interval=100, rounds=10):
    """Two nodes + redis; viewers alternate A, B; the draw is started through A's HTTP API."""
    tmp = tempfile.mkdtemp(prefix="bench-cluster-")
    started = []
    try:
        rp, rport = start_redis(tmp); started.append(rp)
        url = f"redis://127.0.0.1:{rport}"
        nodes = []
        for name in ("a", "b"):
            d = os.path.join(tmp, f"data-{name}")
            os.makedirs(d)
            p, port = B.start_ours(interval, extra=["--redis-url", url], data_dir=d)
            started.append(p); nodes.append((p, port))
        (pa, port_a), (pb, port_b) = nodes
        key = json.loads(B.api(port_a, "POST", "/api/rooms", {"name": "r1"}))["hostKey"]
        r = B.ldgen(port_a, f"{pa.pid},{pb.pid}", n, "/ws/r1", rounds, _trigger(port_a, key, "r1"),
                    extra=["--subprotocol", "live-draw.v1", "--port2", str(port_b), "--aux-pid", str(rp.pid)])
        return derive_cluster(r, r.get("aux_cpu_s", -1))
    finally:
        for p in reversed(started):
            B.kill(p)
        shutil.rmtree(tmp, ignore_errors=True)


def run_single(n, interval=100, rounds=10):
    """One node, no Redis, the same N; a data directory too, as the cluster nodes have one."""
    tmp = tempfile.mkdtemp(prefix="bench-single-")
    p = None
    try:
        p, port = B.start_ours(interval, data_dir=tmp)
        key = json.loads(B.api(port, "POST", "/api/rooms", {"name": "r1"}))["hostKey"]
        r = B.ldgen(port, p.pid, n, "/ws/r1", rounds, _trigger(port, key, "r1"),
                    extra=["--subprotocol", "live-draw.v1"])
        return B.derive(r)
    finally:
        B.kill(p)
        shutil.rmtree(tmp, ignore_errors=True)


COLS = [("lat_p50_ms", "p50 ms", "{:.1f}"), ("lat_p99_ms", "p99 ms", "{:.1f}"), ("lat_max_ms", "max ms", "{:.1f}"),
        ("lat_p99_ms_port1", "p99 A", "{:.1f}"), ("lat_p99_ms_port2", "p99 B", "{:.1f}"),
        ("lost", "lost", "{:.0f}"), ("rss_per_conn_kib", "RSS KiB/conn", "{:.2f}"),
        ("cpu_us_per_msg", "nodes CPU us/msg", "{:.2f}"), ("redis_cpu_us_per_msg", "redis CPU us/msg", "{:.3f}"),
        ("redis_cpu_s", "redis CPU ms", "{:.1f}"), ("gen_busy_pct", "gen busy %", "{:.0f}")]


def _fmt(r, key, f):
    v = r.get(key)
    if v is None or (isinstance(v, float) and v != v):
        return "-"
    return f.format(v * 1e3 if key == "redis_cpu_s" else v)


def scenario(ns, repeats):
    """Returns the lines to print: a table (median of repeats) and the cluster/single ratios."""
    if not os.path.exists(REDIS):
        return ["\nScenario d: skipped, redis-server is not installed (scripts/install-deps.sh --test)"]
    rows, lines = [], []
    for n in ns:
        single, cluster = [], []
        for i in range(repeats):  # interleaved: single, cluster, single, cluster ...
            B.log(f"[d] N={n} repeat {i + 1}/{repeats}: one node")
            single.append(run_single(n)); time.sleep(1)
            B.log(f"[d] N={n} repeat {i + 1}/{repeats}: two nodes + redis")
            cluster.append(run_cluster(n)); time.sleep(1)
        B.log(json.dumps({"n": n, "single": single, "cluster": cluster}))
        # A run that did not connect everyone or timed out measured the machine, not the hop.
        complete = lambda rs: [r for r in rs if not r["timed_out"] and r["connected"] == n] or rs
        dropped = len(single) + len(cluster) - len(complete(single)) - len(complete(cluster))
        single, cluster = complete(single), complete(cluster)
        ms, mc = B.median_of(single), B.median_of(cluster)
        rows += [(f"1 node", n, ms), (f"2 nodes", n, mc)]
        each = lambda rs, k: " / ".join(f"{x[k]:.1f}" for x in rs)
        lines.append(f"  N={n}: p99 added by the hop {mc['lat_p99_ms'] - ms['lat_p99_ms']:+.1f} ms (target <= +2 ms); "
                     f"viewers on B vs A {mc['lat_p99_ms_port2'] - mc['lat_p99_ms_port1']:+.1f} ms;  "
                     f"nodes CPU/msg {mc['cpu_us_per_msg'] / ms['cpu_us_per_msg']:.2f}x, "
                     f"+ redis {(mc['cpu_us_per_msg'] + mc['redis_cpu_us_per_msg']) / ms['cpu_us_per_msg']:.2f}x")
        lines.append(f"    each run p99: one node {each(single, 'lat_p99_ms')};  two nodes {each(cluster, 'lat_p99_ms')}"
                     + (f";  {dropped} incomplete run(s) left out" if dropped else ""))
    head = ["setup", "N"] + [c[1] for c in COLS]
    table = [head] + [[label, str(n)] + [_fmt(r, k, f) for k, _, f in COLS] for label, n, r in rows]
    w = [max(len(row[i]) for row in table) for i in range(len(head))]
    out = [f"\nScenario d: one room, 10 rounds 100 ms apart, viewers split over two nodes sharing a "
           f"redis-server (draw started through node A) vs one node with the same N; both nodes and "
           f"redis on CPU {B.SRV_CPU}, ldgen on CPU {B.GEN_CPU}; median of {repeats}"]
    out.append("\n".join("  ".join(x.rjust(w[i]) for i, x in enumerate(row)) for row in table))
    return out + lines
