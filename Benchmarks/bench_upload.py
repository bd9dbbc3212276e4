"""Scenario u of Benchmarks/bench.py (issue 31, finding 2): what an entrant-list upload costs.

A host's `PUT /api/rooms/ROOM/entrants` to a real release server over HTTP, three bodies: 100,000
entrants as text (one name per line), the same 100,000 as the JSON lists
(`{"users":{"items":…},"usersInLottery":{"lotteryList":…}}`, the documents scenario f writes), and
the attack body of the issue, 16 MiB of `{"users":[1,1,1,…]}` (any room's key will do). Each
upload goes to a fresh server (so its memory peak is the upload's alone), pinned like the others,
twice: without records (`--data-dir off`, as the other scenarios run) and with them (a fresh
temporary data directory, as a server runs by default: the list is then also encoded and written
to SQLite before the answer).

Measured per upload: the answer's time (the request sent whole to the answer read, on loopback),
the server's CPU seconds over it (/proc/PID/stat), and the growth of its resident memory: the
highest of VmRSS sampled every 2 ms and of VmHWM (when the upload raised it), less VmRSS before.
Targets (bench_targets): 100,000 JSON entrants and the attack body answered within 2 s, with a
growth of at most 3x their body, with and without records (the text's growth is shown, without a
target: see scenario_u).
"""
import http.client
import json
import os
import shutil
import tempfile
import threading
import time

BODY_LIMIT = 16 << 20  # the server's default --max-upload-bytes
TIME_TARGET_S = 2.0
RSS_TARGET_X = 3.0


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bodies(bench, n):
    """(label, Content-Type, bytes) of the three uploads."""
    import bench_entrants
    text = "\n".join(f"Entrant {i:06d}" for i in range(1, n + 1)).encode()
    users, lottery = bench_entrants.list_files(bench.BUILD, n)
    with open(users, "rb") as u, open(lottery, "rb") as l:
        lists = b'{"users":' + u.read() + b',"usersInLottery":' + l.read() + b"}"
    ones = (BODY_LIMIT - len('{"users":[1]}')) // 2
    attack = b'{"users":[' + b"1," * ones + b"1]}"
    return [(f"text {n:,} entrants", "text/plain", text), (f"JSON {n:,} entrants", "application/json", lists),
            ("JSON attack body", "application/json", attack)]


def upload_once(bench, content_type, body, server=None, records=False):
    data_dir = tempfile.mkdtemp(prefix="ld-bench-u-") if records else "off"
    p, port = bench.start_ours(1000, server=server, data_dir=data_dir)
    try:
        key = json.loads(bench.api(port, "POST", "/api/rooms", {"name": "u1"}))["hostKey"]
        time.sleep(0.3)  # let the start-up settle before the baseline
        rss0, hwm0, cpu0 = status_kib(p.pid, "VmRSS"), status_kib(p.pid, "VmHWM"), cpu_s(p.pid)
        peak, done = [rss0], threading.Event()

        def sample():
            while not done.is_set():
                try:
                    peak[0] = max(peak[0], status_kib(p.pid, "VmRSS"))
                except OSError:
                    return
                time.sleep(0.002)
        sampler = threading.Thread(target=sample, daemon=True); sampler.start()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        t0 = time.monotonic()
        try:
            conn.request("PUT", "/api/rooms/u1/entrants", body=body,
                         headers={"Content-Type": content_type, "Authorization": f"Bearer {key}"})
            r = conn.getresponse()
            status, answer = r.status, r.read().decode(errors="replace")
        except (OSError, http.client.HTTPException) as e:
            status, answer = 0, f"no answer: {e!r}"
        seconds = time.monotonic() - t0
        done.set(); sampler.join()
        hwm1 = status_kib(p.pid, "VmHWM")
        top = max(peak[0], hwm1 if hwm1 > hwm0 else 0)
        code = ""
        try:
            j = json.loads(answer)
            code = j["error"]["code"] if "error" in j else f"{j.get('entrants')} entrants"
        except ValueError:
            code = answer[:60]
        return {"seconds": seconds, "cpu_s": cpu_s(p.pid) - cpu0, "rss_growth_mib": (top - rss0) / 1024,
                "rss_before_mib": rss0 / 1024, "status": status, "answer": code}
    finally:
        bench.kill(p)
        if records:
            shutil.rmtree(data_dir, ignore_errors=True)


def scenario_u(bench, n, repeats, baseline=None):
    """Returns the report lines; adds our targets to bench_targets. With `baseline` (a live-draw
    binary from before), each upload also goes to it, after ours, and gets a row of its own."""
    import bench_targets
    out = [f"\nScenario u: one PUT /api/rooms/ROOM/entrants to a fresh server, on loopback; median of {repeats}",
           f"{'body':<34} {'records':>7} {'MiB':>6} {'answer':>28} {'time s':>7} {'CPU s':>6} {'RSS growth MiB':>15} {'x body':>7}"]

    def row(label, records, mib, r):
        return (f"{label:<34} {'kept' if records else 'off':>7} {mib:6.2f} {str(r['status']) + ' ' + str(r['answer']):>28} "
                f"{r['seconds']:7.2f} {r['cpu_s']:6.2f} {r['rss_growth_mib']:15.1f} {r['rss_growth_mib'] / mib:7.2f}")

    for label, content_type, body in bodies(bench, n):
        mib = len(body) / (1 << 20)
        for records in (False, True):
            mode = "records kept" if records else "no records"
            if baseline:
                before = []
                for i in range(repeats):
                    bench.log(f"[u] baseline: {label}, {mode}, {len(body)} bytes, repeat {i + 1}/{repeats}")
                    before.append(upload_once(bench, content_type, body, baseline, records)); time.sleep(0.5)
                    bench.log(json.dumps(before[-1]))
                out.append(row("(baseline) " + label, records, mib, bench.median_of(before)))
            runs = []
            for i in range(repeats):
                bench.log(f"[u] {label}, {mode}, {len(body)} bytes, repeat {i + 1}/{repeats}")
                runs.append(upload_once(bench, content_type, body, records=records)); time.sleep(0.5)
                bench.log(json.dumps(runs[-1]))
            r = bench.median_of(runs)
            ratio = r["rss_growth_mib"] / mib
            out.append(row(label, records, mib, r))
            out.append(f"  each run: " + " / ".join(f"{x['seconds']:.2f} s, {x['rss_growth_mib']:.0f} MiB" for x in runs))
            answered = all(x["status"] for x in runs)
            if content_type == "text/plain":
                # No target for the text: its 1.4 MiB become 100,000 players (4.6 MiB in memory,
                # which the room keeps) and, with records, a 9 MiB canonical list to store, so
                # 3x its body is below what the list itself takes, whatever the parser does.
                continue
            suffix = ", records kept" if records else ""
            bench_targets.add(f"u: {label}{suffix}, time to answer", r["seconds"], "{:.2f} s", f"<= {TIME_TARGET_S:g} s",
                              answered and r["seconds"] <= TIME_TARGET_S, f"{r['status']} {r['answer']}, CPU {r['cpu_s']:.2f} s")
            bench_targets.add(f"u: {label}{suffix}, peak RSS growth / body", ratio, "{:.2f}x", f"<= {RSS_TARGET_X:g}x",
                              answered and ratio <= RSS_TARGET_X, f"{r['rss_growth_mib']:.1f} MiB for {mib:.1f} MiB")
    return out
