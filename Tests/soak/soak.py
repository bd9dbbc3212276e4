"""The cluster soak (issue 44): three live-draw nodes on one real redis-server (AOF, fsync
always), rooms with hosts acting through random nodes and recording viewers spread over every
node, rolling SIGTERM restarts and one Redis restart from its AOF, for SOAK_MINUTES; then every
viewer's transcript and every node's history go through the fault suite's checker
(Tests/cluster-faults/checker.py). Prints Redis' used_memory per draw and every node's RSS per
minute. README.md says what it does and how to read its output."""
import asyncio
import json
import os
import random
import signal
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import checker
from cluster import ROUND_INTERVAL_MS, ROUNDS, Cluster
from gauges import median_kib, mib, redis_used_memory, rss_kib
from helpers import http
from helpers.redis import RedisServer, launch_node, wait_until
from host import RoomHost
from viewers import SoakViewer

NODES = 3
# After the hosts stop: how long every room may take to be idle (no draw, no schedule) and every
# node's listings to agree with no draw `running`. Polled; past it the checker reads what is there.
IDLE_S, SETTLE_S = 60.0, 30.0
# A node must exit within this long of its SIGTERM (its drain: --shutdown-grace-ms is 25 s).
EXIT_S = 40.0


@dataclass
class SoakConfig:
    minutes: float
    seed: int
    rooms: int = 20
    big_rooms: int = 6
    viewers: int = 220
    restart_every_s: float = 120.0
    # Redis' history window (--redis-history-seconds, issue 44): 5 minutes, so a 30-minute run
    # shows Redis growing over the first window, then flat.
    history_s: int = 300
    # Whether the last node is left out of the rolling restarts, so one process runs the whole
    # soak and its RSS from minute 5 to the end says whether a node grows (issue 44).
    steady_node: bool = True
    # A host acts every this many seconds (uniformly drawn between the two).
    pause_s: tuple = (3.0, 10.0)
    # The nodes' MALLOC_ARENA_MAX, as deployed (the Dockerfile, docs/SCALING.md "Deployment");
    # '' leaves glibc's default (SOAK_MALLOC_ARENA_MAX=).
    malloc_arena_max: str = "2"

    @property
    def warmup_minute(self) -> int:
        """Where Redis' bytes per draw and the nodes' RSS growth are measured from."""
        return 5 if self.minutes >= 10 else 1

    @classmethod
    def from_env(cls) -> "SoakConfig":
        minutes = float(os.environ.get("SOAK_MINUTES", "30"))
        seed = int(os.environ.get("SOAK_SEED") or random.SystemRandom().randrange(1, 10**9))
        return cls(minutes=minutes, seed=seed,
                   rooms=int(os.environ.get("SOAK_ROOMS", "20")),
                   big_rooms=int(os.environ.get("SOAK_BIG_ROOMS", "6")),
                   viewers=int(os.environ.get("SOAK_VIEWERS", "220")),
                   restart_every_s=float(os.environ.get("SOAK_RESTART_S") or (120 if minutes >= 10 else 50)),
                   history_s=int(os.environ.get("SOAK_HISTORY_S", "300")),
                   steady_node=os.environ.get("SOAK_STEADY_NODE", "1" if minutes >= 10 else "0") == "1",
                   malloc_arena_max=os.environ.get("SOAK_MALLOC_ARENA_MAX", "2"))


@dataclass
class SoakResult:
    cfg: SoakConfig
    violations: list = field(default_factory=list)
    draws: Counter = field(default_factory=Counter)      # status -> draws (every room, node 0's listing)
    viewer_draws = 0
    statuses: Counter = field(default_factory=Counter)   # "action status" -> count
    forbidden = 0
    samples: list = field(default_factory=list)          # (minute, draws started, used_memory, [rss KiB])
    restarts: list = field(default_factory=list)         # (seconds, node)
    rooms = 0
    viewers = 0
    seconds = 0.0

    @property
    def ok(self) -> bool:
        return not self.violations

    def _at(self, minute):
        return next((s for s in self.samples if s[0] == minute), None)

    def report(self) -> str:
        c = self.cfg
        out = [f"== cluster soak: SOAK_MINUTES={c.minutes:g} SOAK_SEED={c.seed}: {self.rooms} rooms "
               f"over the run ({c.rooms} at a time, {c.big_rooms} with {5000:,}-name lists), {c.viewers} viewers at a "
               f"time on {NODES} nodes ({self.viewers} over the run), "
               f"a SIGTERM restart every {c.restart_every_s:g} s, Redis history window {c.history_s} s, "
               f"MALLOC_ARENA_MAX={c.malloc_arena_max or '(glibc default)'}, run {self.seconds:.0f} s"]
        out.append(f"draws run: {sum(self.draws.values())} ({', '.join(f'{k} {v}' for k, v in sorted(self.draws.items()))})")
        out.append(f"viewer-draws checked: {self.viewer_draws}")
        out.append("host actions: " + ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items())))
        out.append(f"403 (or 500) for a host's current key: {self.forbidden}")
        w, end = self._at(c.warmup_minute), self.samples[-1] if self.samples else None
        if w and end and w[2] is not None and end[2] is not None:
            per = (end[2] - w[2]) / (end[1] - w[1]) if end[1] > w[1] else float("nan")
            out.append(f"redis used_memory: {mib(w[2], 2**20)} MiB after warm-up (minute {w[0]}, {w[1]} draws), "
                       f"{mib(end[2], 2**20)} MiB at the end ({end[1]} draws): {per:,.0f} bytes per draw")
        # Past the window (and a minute for the last ends before it to go), Redis should hold
        # only what one window's draws need: its growth per draw from there is the steady state.
        steady = self._at(int(c.history_s // 60) + 2)
        if steady and end and steady is not end and steady[2] is not None and end[2] is not None and end[1] > steady[1]:
            out.append(f"redis used_memory past the {c.history_s} s window (minute {steady[0]} to the end): "
                       f"{(end[2] - steady[2]) / (end[1] - steady[1]):+,.0f} bytes per draw over {end[1] - steady[1]} draws")
        out.append("RSS: each minute's median of readings 5 s apart")
        out.append("minute  draws  redis MiB  " + "  ".join(f"n{i} RSS MiB" for i in range(NODES)))
        for m, draws, used, rss in self.samples:
            out.append(f"{m:6}  {draws:5}  {mib(used, 2**20):>9}  " + "  ".join(f"{mib(r):>10}" for r in rss))
        for i in range(NODES):
            restarted = [round(s) for s, n in self.restarts if n == i]
            if w and end and w[3][i] is not None and end[3][i] is not None:
                grow = (f"{(end[3][i] - w[3][i]) / 1024:+.1f} MiB ({(end[3][i] - w[3][i]) * 100 / w[3][i]:+.1f}%) "
                        f"from minute {w[0]} to the end")
            else:
                grow = "not measured (down at a sample)"
            when = f"restarted at {restarted} s (its RSS starts again there)" if restarted else "never restarted"
            if restarted and end:
                # The same process from its first sample after its last restart to the end.
                after = [x for x in self.samples if x[0] * 60 > restarted[-1] and x[3][i] is not None]
                if len(after) > 1:
                    when += (f"; {(after[-1][3][i] - after[0][3][i]) / 1024:+.1f} MiB from minute {after[0][0]} "
                             f"(after its last restart) to the end")
            out.append(f"n{i}: RSS {grow}; {when}")
        out.append(f"violations: {len(self.violations)}")
        out += [f"  - {v}" for v in self.violations[:60]]
        if len(self.violations) > 60:
            out.append(f"  … and {len(self.violations) - 60} more")
        out.append(f"replay: SOAK_SEED={c.seed} SOAK_MINUTES={c.minutes:g} make soak-cluster")
        return "\n".join(out)


class Soak:
    def __init__(self, cfg: SoakConfig, launch):
        self.cfg, self.launch = cfg, launch
        self.res = SoakResult(cfg)
        self.t0 = time.monotonic()
        self.stopping = False
        self.down: set = set()            # nodes between their SIGTERM and their restart's link up
        self.started_ids: set = set()     # every draw any viewer saw start (SoakViewer)
        self.rooms: list[RoomHost] = []   # the live room of each slot
        self.all_rooms: list[RoomHost] = []
        self._next_target = 0
        self.redis = self.cluster = None
        self.nodes: list = []

    def log(self, text: str) -> None:
        print(f"[{time.monotonic() - self.t0:7.1f}s] {text}", flush=True)

    def pick_node(self, rng: random.Random) -> int:
        up = [i for i in range(len(self.nodes)) if i not in self.down] or list(range(len(self.nodes)))
        return rng.choice(up)

    def open_viewers(self, room: RoomHost) -> list:
        """The room's share of the viewers, each on the next node in turn, recording."""
        n = self.cfg.viewers // self.cfg.rooms + (room.slot < self.cfg.viewers % self.cfg.rooms)
        out = []
        for j in range(n):
            target = self._next_target % NODES
            self._next_target += 1
            v = SoakViewer(f"{room.name}.v{j}", self.cluster, target, room.name, self.started_ids)
            v.start()
            out.append(v)
        return out

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> SoakResult:
        self.redis = RedisServer(aof=True)
        try:
            self.nodes = [launch_node(self.launch, self.redis, round_interval_ms=ROUND_INTERVAL_MS, rounds=ROUNDS,
                                      loading_notice_ms=0, countdown_ms=0, room_creation_burst=100_000,
                                      redis_history_seconds=self.cfg.history_s)
                          for _ in range(NODES)]
            self.cluster = Cluster(self.redis, self.launch, None, random.Random(self.cfg.seed), self.log)
            self.cluster.nodes = self.nodes
            asyncio.run(self._main())
        finally:
            self.redis.close()
        self.res.seconds = time.monotonic() - self.t0
        return self.res

    async def _main(self) -> None:
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(64))
        cfg = self.cfg
        self.rooms = [RoomHost(self, s, 0, s < cfg.big_rooms) for s in range(cfg.rooms)]
        self.all_rooms = list(self.rooms)
        await asyncio.gather(*(r.create() for r in self.rooms))
        viewers = [v for r in self.rooms for v in r.viewers]
        await self.cluster.until(lambda: all(v.connected() for v in viewers), 60, "every viewer's snapshot")
        self.log(f"{len(self.rooms)} rooms, {len(viewers)} viewers connected; hosts start (SOAK_SEED={cfg.seed})")
        self.t0 = time.monotonic()
        self._sample(0)
        duration = cfg.minutes * 60
        hosts = [asyncio.create_task(self._host(s)) for s in range(cfg.rooms)]
        faults = asyncio.create_task(self._faults(duration))
        sampler = asyncio.create_task(self._sampler())
        await asyncio.sleep(duration)
        self.stopping = True
        await asyncio.gather(*hosts, faults)
        sampler.cancel()
        # The last minute's sample, unless the sampler took it as the hosts stopped.
        end_minute = max(1, round((time.monotonic() - self.t0) / 60))
        if self.res.samples[-1][0] < end_minute:
            self._sample(end_minute)
        await self._wind_down()

    async def _host(self, slot: int) -> None:
        while not self.stopping:
            room = self.rooms[slot]
            await asyncio.sleep(room.rng.uniform(*self.cfg.pause_s))
            if self.stopping:
                return
            try:
                successor = await room.act()
            except Exception as e:  # noqa: BLE001 - one host's surprise fails the run, not the soak
                self.res.violations.append(f"room {room.name}: the host's action failed: {e!r}")
                self.log(f"!! {self.res.violations[-1]}")
                continue
            if successor is not None:
                self.rooms[slot] = successor
                self.all_rooms.append(successor)

    async def _faults(self, duration: float) -> None:
        """Rolling restarts, one node every `restart_every_s`, and one Redis restart half-way
        between two of them near the middle of the run; none in the last 20 s."""
        every = self.cfg.restart_every_s
        count = int((duration - 20) // every)
        restarted = NODES - 1 if self.cfg.steady_node else NODES
        plan = [(k * every, "node", (k - 1) % restarted) for k in range(1, count + 1)]
        plan.append((every * (count // 2) + every / 2, "redis", None))
        for at, what, i in sorted(plan, key=lambda p: p[0]):
            wait = at - (time.monotonic() - self.t0)
            if wait > 0:
                await asyncio.sleep(wait)
            if self.stopping:
                return
            if what == "node":
                await self._restart_node(i)
            else:
                await self._restart_redis()

    async def _restart_node(self, i: int) -> None:
        node = self.nodes[i]
        self.down.add(i)
        self.res.restarts.append((time.monotonic() - self.t0, i))
        t = time.monotonic()
        node.signal(signal.SIGTERM)
        code = await asyncio.to_thread(node.wait, EXIT_S)
        if code is None:
            self.res.violations.append(f"n{i} did not exit within {EXIT_S:.0f} s of its SIGTERM (killed)")
            node.kill()
        drained = time.monotonic() - t
        await asyncio.to_thread(node.restart)
        await asyncio.to_thread(wait_until, lambda: http.api(node, "GET", "/healthz")[1].get("cluster") == "up",
                                30, f"n{i}'s Redis link after its restart")
        self.down.discard(i)
        self.log(f"SIGTERM n{i}: exited {code} after {drained:.1f} s, back in {time.monotonic() - t:.1f} s")

    async def _restart_redis(self) -> None:
        t = time.monotonic()
        self.log("redis-server killed (-9), restarting from its AOF in 1 s")
        await asyncio.to_thread(self.redis.stop)
        await asyncio.sleep(1.0)
        await asyncio.to_thread(self.redis.start)
        self.log(f"redis-server back from its AOF after {time.monotonic() - t:.1f} s")

    # RSS is read every few seconds and each minute reports the median of its readings: one
    # reading catches whatever list is being loaded at that instant (±10 MiB on a node, run 4 of
    # README.md), the median what the node holds.
    RSS_EVERY_S = 5.0

    async def _sampler(self) -> None:
        minute, readings = 1, []
        while True:
            due = minute * 60 - (time.monotonic() - self.t0)
            if due > self.RSS_EVERY_S:
                await asyncio.sleep(self.RSS_EVERY_S)
                readings.append([rss_kib(n) for n in self.nodes])
                continue
            await asyncio.sleep(max(0.0, due))
            readings.append([rss_kib(n) for n in self.nodes])
            self._sample(minute, readings)
            minute, readings = minute + 1, []

    def _sample(self, minute: int, readings=None) -> None:
        used = redis_used_memory(self.redis)
        readings = readings or [[rss_kib(n) for n in self.nodes]]
        rss = [median_kib([r[i] for r in readings]) for i in range(len(self.nodes))]
        self.res.samples.append((minute, len(self.started_ids), used, rss))
        self.log(f"minute {minute}: {len(self.started_ids)} draws started, redis used_memory {mib(used, 2**20)} MiB, "
                 f"RSS (median of {len(readings)}) " + " ".join(f"n{i} {mib(r)} MiB" for i, r in enumerate(rss)))

    # -- the end ---------------------------------------------------------------------------

    async def _wind_down(self) -> None:
        live = [r for r in self.rooms if not r.deleted]
        self.log(f"hosts stopped; waiting for every room to be idle (at most {IDLE_S:.0f} s)")
        stuck = await asyncio.to_thread(self._wait_idle, live)
        for name, snap in stuck.items():
            self.res.violations.append(f"room {name} still not idle {IDLE_S:.0f} s after the hosts stopped: {snap}")
        took = await asyncio.to_thread(self._settle)
        self.log(f"listings settled in {took:.1f} s (bound {SETTLE_S:.0f} s)")
        late = {r.name: await self.cluster.late_snapshots(r.name) for r in live}
        for r in self.all_rooms:
            for v in r.viewers:
                await v.stop()
        self.log("checking every viewer's transcript against every node's history")
        await asyncio.to_thread(self._check, late)

    def _wait_idle(self, rooms: list) -> dict:
        deadline = time.monotonic() + IDLE_S
        pending = {r.name: None for r in rooms}
        while pending and time.monotonic() < deadline:
            for name in list(pending):
                try:
                    status, snap = http.api(self.nodes[0], "GET", f"/api/rooms/{name}")
                except OSError as e:
                    status, snap = repr(e), None
                if status == 200 and snap.get("draw") is None and snap.get("scheduled") is None:
                    del pending[name]
                else:
                    pending[name] = (status, (snap or {}).get("draw") if isinstance(snap, dict) else snap)
            time.sleep(0.5)
        return pending

    def _listing(self, node, room: RoomHost):
        lines, cursor = [], None
        for _ in range(100):
            status, body = http.api(node, "GET", f"/api/rooms/{room.name}/draws?limit=100"
                                    + (f"&cursor={cursor}" if cursor else ""), timeout=10)
            if status == 404 and room.deleted:
                return {}   # deleted before any draw was recorded (PROTOCOL.md §5.1)
            if status != 200:
                return None
            lines += body["draws"]
            cursor = body.get("nextCursor")
            if not cursor:
                return {l["drawId"]: l["status"] for l in lines}
        return None

    def _settle(self) -> float:
        """Until every node lists the same draws with the same status, none `running`, in every
        room (deleted ones too); returns how long it took (SETTLE_S if never)."""
        t = time.monotonic()
        while time.monotonic() - t < SETTLE_S:
            agreed = True
            for r in self.all_rooms:
                views = [self._listing(n, r) for n in self.nodes]
                if any(v is None or "running" in v.values() for v in views) or any(v != views[0] for v in views):
                    agreed = False
                    break
            if agreed:
                return time.monotonic() - t
            time.sleep(1.0)
        return SETTLE_S

    def _keep(self, r: RoomHost, transcripts, histories, late, found) -> None:
        """A room with findings: its transcripts, histories (entrant lists left out), host's
        actions and findings in artifacts/soak/SEED/ROOM.json."""
        folder = ARTIFACTS / str(self.cfg.seed)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{r.name}.json"
        path.write_text(json.dumps({"room": r.name, "seed": self.cfg.seed, "trail": r.trail, "accepted": r.accepted,
                                    "scheduled": r.scheduled, "violations": found + r.forbidden,
                                    "late_snapshots": late, "transcripts": transcripts, "histories": histories}))
        self.log(f"room {r.name}: transcripts and histories kept in {path}")

    def _check(self, late: dict) -> None:
        res = self.res
        res.rooms = len(self.all_rooms)
        for r in self.all_rooms:
            res.viewers += len(r.viewers)
            res.statuses.update(r.statuses)
            res.forbidden += len(r.forbidden)
            res.violations += r.forbidden
            histories = {}
            for i, node in enumerate(self.nodes):
                h = self.cluster.read_history(node, r.name, r.viewers)
                if r.deleted and h["listing"] is None and str(h["listing_error"]).startswith("404"):
                    # PROTOCOL.md §5.1: a room that is gone and recorded no draw is unknown. Its
                    # history is empty: any draw a viewer saw or a start accepted is still missed.
                    h["listing"], h["listing_error"] = [], None
                res.violations += [f"room {r.name}: {v}" for v in verify_and_compact(h, node, f"n{i}")]
                histories[f"n{i}"] = h
            transcripts = [v.transcript() for v in r.viewers]
            found = [str(v) for v in checker.check(transcripts, histories, r.accepted,
                                                   None if r.deleted else late.get(r.name))]
            found += scheduled_findings(r, histories)
            res.violations += [f"room {r.name}: {v}" for v in found]
            if found or r.forbidden:
                self._keep(r, transcripts, histories, late.get(r.name), found)
            res.viewer_draws += sum(len(v.draws_witnessed()) for v in r.viewers)
            for line in histories["n0"]["listing"] or []:
                res.draws[line["status"]] += 1
            for v in r.viewers:
                v.segments = []   # done with it: free the memory before the next room


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "soak"


def verify_and_compact(history: dict, node, name: str) -> list:
    """Verifies every ended record of one node's history of a room with tools/verify_draw.py (a
    redraw against the record it redraws, which the fault suite's checker, never given a redraw,
    does not look up), then replaces each record's entrant list by its length, so a 30-minute
    run's histories fit in memory. Returns what failed; the checker then checks the rest (its
    own verification is skipped for records without a list)."""
    out = []
    records = history["records"]
    for x, rec in records.items():
        body = rec.get("body")
        if not (isinstance(body, dict) and body.get("seed") and isinstance(body.get("entrants"), list)
                and body.get("drawId") == x):
            continue
        base = None
        link = body.get("redrawOf")
        if link:
            base = (records.get(link.get("drawId")) or {}).get("body")
            if not (isinstance(base, dict) and isinstance(base.get("entrants"), list)):
                status, base = http.api(node, "GET", f"/api/draws/{link.get('drawId')}")
        try:
            rep = checker.verify_draw.verify_document(body, base)
        except Exception as e:  # noqa: BLE001 - a record the verifier cannot read fails it
            rep = {"ok": False, "error": repr(e)}
        if not rep["ok"]:
            out.append(f"promise 4: node {name}: the record of {x} does not verify (tools/verify_draw.py): "
                       f"{ {k: v for k, v in rep.items() if k.endswith('Ok') or k == 'error'} }")
    for rec in records.values():
        body = rec.get("body")
        if isinstance(body, dict) and isinstance(body.get("entrants"), list):
            body["entrantCount"] = len(body.pop("entrants"))
    return out


def scheduled_findings(room: RoomHost, histories: dict) -> list:
    """Every draw the host scheduled (201) is recorded on every node and ended: a cancelled one
    `aborted` (cancelled), any other one run (not still `scheduled` or `running`, not `missed`)."""
    out = []
    for x, s in room.scheduled.items():
        for node, h in sorted(histories.items()):
            listed = {l["drawId"]: l["status"] for l in h["listing"] or []}
            body = (h["records"].get(x) or {}).get("body")
            if x not in listed or not isinstance(body, dict):
                out.append(f"node {node}: scheduled draw {x} is missing from the history")
                continue
            st, why = body.get("status"), body.get("abortReason")
            if st in ("scheduled", "running"):
                out.append(f"node {node}: scheduled draw {x} is still `{st}` after settling")
            elif s["cancelled"] and (st, why) != ("aborted", "cancelled"):
                out.append(f"node {node}: cancelled draw {x} is recorded `{st}`/{why}")
            elif not s["cancelled"] and why in ("missed", "cancelled"):
                out.append(f"node {node}: scheduled draw {x} was never run: `{st}`/{why}")
    return out


def run_soak(cfg: SoakConfig, launch) -> SoakResult:
    # The nodes inherit this process' environment (helpers/server.py).
    if cfg.malloc_arena_max:
        os.environ["MALLOC_ARENA_MAX"] = cfg.malloc_arena_max
    else:
        os.environ.pop("MALLOC_ARENA_MAX", None)
    return Soak(cfg, launch).run()
