"""Scenario h of Benchmarks/bench.py (issue 29): fan-out over TLS (wss).

One room, N wss viewers (1,000 and 10,000 by default), 10 rounds 100 ms apart, as in scenario a;
per repeat, interleaved: our server over TLS, the raw-C lws reference over TLS (lws_fanout
--tls-cert/--tls-key, lws' own OpenSSL path), our server on plain ws, and the reference on plain ws
(so the table also shows what TLS adds to each). Then the join storm of scenario c over TLS: N
clients connect at once (no in-flight cap), ours while a draw is live, against the TLS reference.

Both servers get the same certificate, made at bench time with `openssl req`: a self-signed ECDSA
P-256 key (what ACME clients issue by default; an RSA-2048 signature costs the server about 30x
more per handshake, which would swamp the storm with one algorithm's price). ldgen --tls makes a
full handshake per client (no session resumption) and states the negotiated version, cipher suite
and key-exchange group, printed under the table.
"""
import os
import subprocess
import time

import bench_targets

B = None  # bench.py's __main__ module, set by the caller (its globals are the ones in use)
# --perf-dir: seconds of `perf record` from the trigger (a wss draw's deliveries run past its
# second of rounds), and of a storm from its start
PERF_DRAW_S, PERF_STORM_S = 2.0, 8.0
# ldgen --settle-ms: the window (server CPU from the trigger) starts this long after the last
# handshake. A wss join phase lasts seconds and our server tells the room its viewer count at
# most once a second at 10,000 viewers (PresenceCoalescer): 1.5 s keeps the count the joins
# caused out of the draw's CPU, on every side alike (plain runs too, for the ratios).
SETTLE_MS = 1500


def make_cert():
    """The bench's certificate and key (PEM paths), made once per run."""
    cert, key = os.path.join(B.BUILD, "tls-cert.pem"), os.path.join(B.BUILD, "tls-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


def tls_args(pem):
    return ["--tls-cert", pem[0], "--tls-key", pem[1]] if pem else []


def curl(pem):
    """The trigger's curl: -k over TLS, where the certificate is the bench's own."""
    return "curl -s -k" if pem else "curl -s"


def run_ours(n, pem, interval=100, rounds=10, perf_label=None, server=None):
    p, port = B.start_ours(interval, extra=tls_args(pem), server=server)
    try:
        key = B.json.loads(B.api(port, "POST", "/api/rooms", {"name": "r1"}, tls=bool(pem)))["hostKey"]
        trig = B.bench_loop.perf_prefix(p.pid, perf_label, seconds=PERF_DRAW_S) if perf_label else ""
        scheme = "https" if pem else "http"
        trig += (f"{curl(pem)} -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer {key}' "
                 f"{scheme}://127.0.0.1:{port}/api/rooms/r1/draws")
        return B.derive(B.ldgen(port, p.pid, n, "/ws/r1", rounds, trig,
                                extra=["--subprotocol", "live-draw.v2, live-draw.v1", "--settle-ms", str(SETTLE_MS)]
                                + (["--tls"] if pem else [])))
    finally:
        B.kill(p)


def start_ref(pem):
    port = B.free_port()
    p = subprocess.Popen(["taskset", "-c", B.SRV_CPU, B.REF, "--port", str(port), *tls_args(pem)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    B.procs.append(p)
    B.bench_loop.wait_listening(port)
    return p, port


def run_ref(n, pem, interval=100, rounds=10, perf_label=None):
    p, port = start_ref(pem)
    try:
        scheme = "https" if pem else "http"
        trig = B.bench_loop.perf_prefix(p.pid, perf_label, seconds=PERF_DRAW_S) if perf_label else ""
        trig += f"{curl(pem)} '{scheme}://127.0.0.1:{port}/burst?room=r&count={rounds}&interval_ms={interval}'"
        return B.derive(B.ldgen(port, p.pid, n, "/ws/r", rounds, trig,
                                extra=["--settle-ms", str(SETTLE_MS)] + (["--tls"] if pem else [])))
    finally:
        B.kill(p)


def perf_storm(pid, label):
    """--perf-dir: `perf record` of the server through the storm's first PERF_STORM_S seconds."""
    prefix = B.bench_loop.perf_prefix(pid, label, seconds=PERF_STORM_S)
    if prefix:
        subprocess.run(prefix, shell=True)


def storm_ours(n, pem, label=None):
    """Scenario c over TLS: N clients at once while a draw is live; each one's first message must
    be a snapshot of the room."""
    p, port = B.start_ours(1000, extra=tls_args(pem))
    try:
        key = B.json.loads(B.api(port, "POST", "/api/rooms", {"name": "r1"}, tls=True))["hostKey"]
        B.api(port, "POST", "/api/rooms/r1/draws", key=key, tls=True)
        B.wait_until_running(port, "r1", tls=True)
        perf_storm(p.pid, label)
        return B.derive(B.ldgen(port, p.pid, n, "/ws/r1", 1, None, timeout=90,
                                extra=["--tls", "--subprotocol", "live-draw.v1", "--match", '"type":"snapshot"',
                                       "--first-type", "snapshot", "--inflight", str(n)]))
    finally:
        B.kill(p)


def storm_ref(n, pem, label=None):
    """The same storm against the TLS reference (it sends nothing on connect: one /burst message
    per client ends the run; only the connect time is compared)."""
    p, port = start_ref(pem)
    try:
        perf_storm(p.pid, label)
        trig = f"curl -s -k -o /dev/null 'https://127.0.0.1:{port}/burst?room=r&count=1&interval_ms=100'"
        return B.derive(B.ldgen(port, p.pid, n, "/ws/r", 1, trig, timeout=90, extra=["--tls", "--inflight", str(n)]))
    finally:
        B.kill(p)


SIDES = [("ours wss", "live-draw wss"), ("ref wss", "lws_fanout wss"), ("ours ws", "live-draw ws"),
         ("ref ws", "lws_fanout ws")]


def scenario(ns, storm_n, repeats, with_ref, baseline=None):
    """Scenario h; the table lines. Its targets go to bench_targets as they are measured. With
    `baseline` (a live-draw binary) it also runs that one over TLS, interleaved: before/after."""
    pem = make_cert()
    sides = SIDES + ([("base wss", "baseline wss")] if baseline else [])
    rows, out = [], []
    negotiated = None
    for n in ns:
        runs = {side: [] for side, _ in sides}
        for i in range(repeats):
            for side, shown in sides:
                if side.startswith("ref") and not with_ref:
                    continue
                B.log(f"[h] N={n} repeat {i + 1}/{repeats}: {shown}")
                label = f"h-{n}-{side.replace(' ', '-')}-{i + 1}"
                tls = pem if side.endswith("wss") else None
                if side.startswith("ref"):
                    r = run_ref(n, tls, perf_label=label)
                else:
                    r = run_ours(n, tls, perf_label=label, server=baseline if side.startswith("base") else None)
                runs[side].append(r)
                if tls:
                    negotiated = f"{r.get('tls_version')} {r.get('tls_cipher')}, key exchange {r.get('tls_group')}"
                time.sleep(1)
        med = {side: B.median_of(rs) for side, rs in runs.items() if rs}
        for side, shown in sides:
            if side in med:
                rows.append(("h", shown, n, med[side]))
        B.log(B.json.dumps({"h": n, **runs}))
        if n == 10000:
            targets_fanout(med)
        out.append(ratio_line(n, med))
    storms = {"ours": [], "ref": []}
    if storm_n:
        for i in range(repeats):
            B.log(f"[h] wss join storm of {storm_n}, repeat {i + 1}/{repeats}: live-draw")
            storms["ours"].append(storm_ours(storm_n, pem, f"h-storm-ours-{i + 1}")); time.sleep(1)
            if with_ref:
                B.log(f"[h] wss join storm of {storm_n}, repeat {i + 1}/{repeats}: lws_fanout")
                storms["ref"].append(storm_ref(storm_n, pem, f"h-storm-ref-{i + 1}")); time.sleep(1)
        B.log(B.json.dumps({"h storm": storms}))
    head = [f"\nScenario h: wss, one room, 10 rounds 100 ms apart, server on CPU {B.SRV_CPU}, ldgen on CPU {B.GEN_CPU}; "
            f"median of {repeats}; certificate ECDSA P-256 (self-signed, made by this run); negotiated: {negotiated}; "
            f"every client a full handshake (no resumption)", B.table(rows)]
    head += ["\nours wss / lws_fanout wss, ours wss / ours ws (targets at 10k: p99 <= 1.0, CPU/round msg <= 1.0 and "
             "<= 1.5 of ours ws, RSS/conn <= 0.5, lost 0)",
             "     N  p99/ref  CPU/ref  CPU/ours ws  RSS/ref  lost  (lws wss/ws CPU)"] + out
    return head + storm_lines(storm_n, storms)


def ratio_line(n, med):
    o, r, p, rp, b = (med.get(k) for k in ("ours wss", "ref wss", "ours ws", "ref ws", "base wss"))
    q = lambda a, b, k: a[k] / b[k] if a and b and b[k] else float("nan")
    line = (f"{n:6d}  {q(o, r, 'lat_p99_ms'):7.2f}  {q(o, r, 'cpu_us_per_msg'):7.2f}  {q(o, p, 'cpu_us_per_msg'):11.2f}  "
            f"{q(o, r, 'rss_per_conn_kib'):7.2f}  {o['lost']:4.0f}  ({q(r, rp, 'cpu_us_per_msg'):.2f})")
    if b:
        line += (f"   ours/baseline wss: p99 {q(o, b, 'lat_p99_ms'):.2f}, CPU/round msg {q(o, b, 'cpu_us_per_msg'):.2f}, "
                 f"CPU/any msg {q(o, b, 'cpu_us_per_any_msg'):.2f}")
    return line


def targets_fanout(med):
    o, r, p = med["ours wss"], med.get("ref wss"), med["ours ws"]
    add = bench_targets.add
    if r:
        q = o["lat_p99_ms"] / r["lat_p99_ms"]
        add("h: wss 10,000 viewers, delivery p99 ours / lws TLS reference", q, "{:.2f}x", "<= 1.00x", q <= 1.0,
            f"{o['lat_p99_ms']:.1f} vs {r['lat_p99_ms']:.1f} ms")
        q = o["cpu_us_per_msg"] / r["cpu_us_per_msg"]
        add("h: wss 10,000 viewers, CPU per round message ours / lws TLS reference", q, "{:.2f}x", "<= 1.00x",
            q <= 1.0, f"{o['cpu_us_per_msg']:.2f} vs {r['cpu_us_per_msg']:.2f} us")
        q = o["rss_per_conn_kib"] / r["rss_per_conn_kib"]
        add("h: wss 10,000 viewers, RSS per viewer ours / lws TLS reference", q, "{:.2f}x", "<= 0.50x", q <= 0.5,
            f"{o['rss_per_conn_kib']:.1f} vs {r['rss_per_conn_kib']:.1f} KiB")
    q = o["cpu_us_per_msg"] / p["cpu_us_per_msg"]
    add("h: wss 10,000 viewers, CPU per round message ours wss / ours ws", q, "{:.2f}x", "<= 1.50x", q <= 1.5,
        f"{o['cpu_us_per_msg']:.2f} vs {p['cpu_us_per_msg']:.2f} us")
    add("h: wss 10,000 viewers, lost", o["lost"], "{:.0f}", "0", o["lost"] == 0)


def storm_lines(n, storms):
    if not storms["ours"]:
        return []
    each = lambda runs, k, f="{:.0f}": " / ".join(f.format(x[k]) for x in runs)
    o = B.median_of(storms["ours"])
    out = [f"\nScenario h, wss join storm: {n} clients connect at once while a draw is live; median of "
           f"{len(storms['ours'])} (each run after the slash)",
           f"live-draw: connected {o['connected']:.0f}  failed {o['failed_connects']:.0f} "
           f"({each(storms['ours'], 'failed_connects')})  connect {o['connect_ms']:.0f} ms "
           f"({each(storms['ours'], 'connect_ms')})  TLS handshake p50 {o['tls_hs_p50_ms']:.0f} ms p99 "
           f"{o['tls_hs_p99_ms']:.0f} ms  first message a snapshot: {o['first_ok']:.0f} ok / {o['first_bad']:.0f} bad  "
           f"RSS/conn {o['rss_per_conn_kib']:.1f} KiB"]
    if storms["ref"]:
        r = B.median_of(storms["ref"])
        ratio = o["connect_ms"] / max(r["connect_ms"], 1e-9)
        out.append(f"lws_fanout: connected {r['connected']:.0f}  failed {r['failed_connects']:.0f}  connect "
                   f"{r['connect_ms']:.0f} ms ({each(storms['ref'], 'connect_ms')})  TLS handshake p50 "
                   f"{r['tls_hs_p50_ms']:.0f} ms p99 {r['tls_hs_p99_ms']:.0f} ms  RSS/conn {r['rss_per_conn_kib']:.1f} KiB;  "
                   f"ours/lws_fanout connect time {ratio:.2f}  (target <= 1.0, 0 failed)")
        bench_targets.add(f"h: wss join storm of {n:,}, connect time ours / lws TLS reference", ratio, "{:.2f}x",
                          "<= 1.00x", ratio <= 1.0 and o["failed_connects"] == 0,
                          f"{o['connect_ms']:.0f} vs {r['connect_ms']:.0f} ms, {o['failed_connects']:.0f} failed")
    return out
