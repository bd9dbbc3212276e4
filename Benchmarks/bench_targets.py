"""Issue 17's targets (and issue 31's upload, scenario u, and issue 29's wss, scenario h) in one table at the end of a `make bench` run.

The scenarios print their own tables as they finish; the targets they measure are spread over
them (a's ratios to the reference and the floor, b's and b2's lateness, b's CPU against the poll
loop, c's connect time). Each scenario adds the rows it measured here, and bench.py prints them
last, so one run answers "is every target met, in this run" without reading five tables. A row
is only added when its scenario ran with what it needs (the reference, the floor, the poll loop):
a target that was not measured is listed as such, never as met.
"""

# (what, value, format, target, met, detail), in the order measured.
ROWS = []

# Every target of the issue, so that the ones this run did not measure are named too.
EXPECTED = [
    "a: 10,000 viewers, delivery p99 ours / lws reference",
    "a: 10,000 viewers, CPU per round message ours / epoll floor",
    "a: 19,000 viewers, lost",
    "a: 19,000 viewers, RSS per viewer",
    "b: round lateness p99, live-draw",
    "b: server CPU during the draws, ours / lws' poll loop",
    "b2: round lateness p99, live-draw",
    "b2: lost, live-draw",
    "c: join storm of 10,000, connect time ours / lws reference",
    # Issue 31's upload (Benchmarks/bench_upload.py).
    "u: JSON 100,000 entrants, time to answer",
    "u: JSON attack body, time to answer",
    "u: JSON 100,000 entrants, peak RSS growth / body",
    "u: JSON attack body, peak RSS growth / body",
    "u: JSON 100,000 entrants, records kept, time to answer",
    "u: JSON attack body, records kept, time to answer",
    "u: JSON 100,000 entrants, records kept, peak RSS growth / body",
    "u: JSON attack body, records kept, peak RSS growth / body",
    # Issue 29's wss fan-out (Benchmarks/bench_tls.py).
    "h: wss 10,000 viewers, delivery p99 ours / lws TLS reference",
    "h: wss 10,000 viewers, CPU per round message ours / lws TLS reference",
    "h: wss 10,000 viewers, CPU per round message ours wss / ours ws",
    "h: wss 10,000 viewers, RSS per viewer ours / lws TLS reference",
    "h: wss 10,000 viewers, lost",
    "h: wss join storm of 10,000, connect time ours / lws TLS reference",
]


def add(what, value, fmt, target, met, detail=""):
    """Records one measured target: `value` shown with `fmt`, `met` whether it is within `target`."""
    ROWS.append((what, value, fmt, target, bool(met), detail))


def scenario_a(n, ours, ref=None, floor=None):
    """Scenario a's targets at N (medians of the repeats): against the reference and the floor at
    10,000, loss and memory at 19,000."""
    if n == 10000 and ref:
        q = ours["lat_p99_ms"] / ref["lat_p99_ms"]
        add("a: 10,000 viewers, delivery p99 ours / lws reference", q, "{:.2f}x", "<= 1.00x", q <= 1.0,
            f"{ours['lat_p99_ms']:.1f} vs {ref['lat_p99_ms']:.1f} ms")
    if n == 10000 and floor:
        q = ours["cpu_us_per_msg"] / floor["cpu_us_per_msg"]
        add("a: 10,000 viewers, CPU per round message ours / epoll floor", q, "{:.2f}x", "<= 1.15x", q <= 1.15,
            f"{ours['cpu_us_per_msg']:.2f} vs {floor['cpu_us_per_msg']:.2f} us")
    if n == 19000:
        add("a: 19,000 viewers, lost", ours["lost"], "{:.0f}", "0", ours["lost"] == 0)
        add("a: 19,000 viewers, RSS per viewer", ours["rss_per_conn_kib"], "{:.2f} KiB", "<= 2 KiB",
            ours["rss_per_conn_kib"] <= 2.0)


def lines():
    """The closing table: every row measured, then the targets this run did not measure."""
    if not ROWS:
        return []
    out = ["\nIssue 17's, 29's and 31's targets, this run (medians of the repeats; `each run` values in the tables above)"]
    width = max(len(r[0]) for r in ROWS)
    for what, value, fmt, target, met, detail in ROWS:
        shown = fmt.format(value)
        out.append(f"  {what.ljust(width)}  {shown:>11}  target {target:<9}  {'met' if met else 'NOT MET'}"
                   + (f"  ({detail})" if detail else ""))
    measured = {r[0] for r in ROWS}
    missing = [w for w in EXPECTED if w not in measured]
    if missing:
        out.append("  not measured in this run: " + "; ".join(missing))
    met = sum(1 for r in ROWS if r[4])
    out.append(f"  {met} of {len(ROWS)} measured targets met")
    return out
