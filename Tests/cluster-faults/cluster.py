"""The cluster under test: one real redis-server (AOF, fsync always), three real live-draw nodes,
two recording viewers per node on one room, and the history read back from every node.

Built on Tests/e2e/helpers (RedisServer, launch_node, the player-list server, the launcher);
what is new here is the recording viewer (every message, with its receive time, one segment per
connection, reconnecting by itself) and the read-back of every node's history for the checker.
"""
import asyncio
import json
import os
import shutil
import signal
import time
from typing import Optional

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from faultproxy import FaultProxy
from helpers import http
from helpers.protocol import SUBPROTOCOL_V1
from helpers.redis import numsub, wait_until

ROUND_INTERVAL_MS = 200
ROUNDS = 10
# The server's lease (docs/SCALING.md "The lease"): TTL 3 s, renewed every second; no option
# changes it today (`live-draw --help` has none).
LEASE_TTL_S = 3.0
# After the faults are healed and one more plain draw ended: how long the histories may take to
# agree (every draw seen ended, identically, on every node). Polled; past it the checker reads
# whatever is there.
SETTLE_S = 10.0
TERMINAL = ("finished", "aborted", "failed")


def now_ms() -> float:
    return time.time() * 1000.0


class Viewer:
    """One watcher of the room that records everything and reconnects when its connection ends
    (to `target`, which `move()` changes). v1 subprotocol: `started` carries the entrants, so the
    checker can recompute every pick from the seed."""

    def __init__(self, name: str, cluster: "Cluster", target: int, room: Optional[str] = None):
        self.name, self.cluster, self.target = name, cluster, target
        self.room = room or cluster.room
        self.segments: list[dict] = []
        self.ws = None
        self._stop = False
        self._task: Optional[asyncio.Task] = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)

    @property
    def segment(self) -> Optional[dict]:
        return self.segments[-1] if self.segments else None

    async def _run(self) -> None:
        while not self._stop:
            node = self.cluster.nodes[self.target]
            try:
                ws = await connect(node.ws_url(self.room), subprotocols=[SUBPROTOCOL_V1],
                                   compression=None, max_size=None, ping_interval=None, proxy=None,
                                   open_timeout=3, close_timeout=1)
            except (OSError, asyncio.TimeoutError, Exception):  # refused, stopped node, 503...
                await asyncio.sleep(0.2)
                continue
            seg = {"node": self.cluster.node_name(self.target), "opened_at": now_ms(), "closed_at": None,
                   "close": None, "messages": [], "open_at_end": False}
            self.segments.append(seg)
            self.ws = ws
            try:
                async for raw in ws:
                    data = self.decode(raw)
                    if data is not None:
                        seg["messages"].append({"at": now_ms(), "data": data})
            except ConnectionClosed:
                pass
            except Exception as e:  # noqa: BLE001 - keep recording whatever happens
                seg["error"] = repr(e)
            finally:
                seg["closed_at"] = now_ms()
                rcvd = getattr(getattr(ws, "protocol", None), "close_rcvd", None)
                seg["close"] = (rcvd.code, rcvd.reason) if rcvd else (1006, "")
                self.ws = None
            if not self._stop:
                await asyncio.sleep(0.1)

    def decode(self, raw) -> Optional[dict]:
        """What is recorded of one received message: all of it here. A subclass may keep less
        (Tests/soak drops presence and entrant lists to hold hundreds of viewers for minutes);
        None records nothing."""
        return json.loads(raw)

    async def move(self, target: int) -> None:
        """Closes this viewer's connection and reopens it on node `target`."""
        self.target = target
        ws = self.ws
        if ws is not None:
            await ws.close()

    async def stop(self) -> None:
        self._stop = True
        if self.segment is not None and self.ws is not None:
            self.segment["open_at_end"] = True
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 2)
            except Exception:
                pass
        if self._task:
            self._task.cancel()
            try:
                await self._task
            except BaseException:
                pass

    def messages(self):
        for seg in self.segments:
            yield from seg["messages"]

    def connected(self) -> bool:
        return self.ws is not None and bool(self.segment and self.segment["messages"])

    def transcript(self) -> dict:
        return {"viewer": self.name, "segments": self.segments}


class Cluster:
    def __init__(self, redis, launch, data_source, rng, log):
        self.redis, self.launch, self.data_source, self.rng, self.log = redis, launch, data_source, rng, log
        self.nodes = []
        self.viewers: list[Viewer] = []
        self.accepted_starts = 0
        self.room = None
        self.key = None
        self.proxies: list = []     # node i's own link to Redis goes through proxies[i]
        # Rooms beyond the first (a scenario that runs draws in two rooms): room -> {"key",
        # "viewers", "accepted_starts"}; checked on their own, like the first.
        self.extra_rooms: dict = {}
        self.stopped: set = set()   # indices of SIGSTOPped nodes
        self.killed: set = set()    # indices of killed nodes not restarted yet

    def node_name(self, i: int) -> str:
        return f"n{i}"

    # -- setup -----------------------------------------------------------------------------

    def start_nodes(self, count: int = 3) -> None:
        from helpers.redis import launch_node
        for _ in range(count):
            # Each node's --redis-url names its own proxy, so one node's link can be faulted alone.
            proxy = FaultProxy("127.0.0.1", self.redis.port)
            self.proxies.append(proxy)
            self.nodes.append(launch_node(self.launch, proxy, round_interval_ms=ROUND_INTERVAL_MS,
                                          rounds=ROUNDS, loading_notice_ms=0, countdown_ms=0))
        created = http.created_room(self.nodes[0])
        self.room, self.key = created["room"], created["hostKey"]

    async def open_viewers(self, per_node: int = 2) -> None:
        for i in range(len(self.nodes)):
            for j in range(per_node):
                v = Viewer(f"v{i}{'ab'[j]}", self, i)
                self.viewers.append(v)
                v.start()
        await self.until(lambda: all(v.connected() for v in self.viewers), 15, "every viewer's snapshot")
        await asyncio.to_thread(wait_until, lambda: numsub(self.redis, self.room) >= len(self.nodes), 10,
                                "every node subscribed to the room")

    async def add_room(self, per_node: int = 1) -> str:
        """A second room (created through node 0) with `per_node` recording viewers on each
        node, named w<node><a|b>; its draws are checked on their own (run.py)."""
        created = await asyncio.to_thread(http.created_room, self.nodes[0])
        room = created["room"]
        viewers = []
        for i in range(len(self.nodes)):
            for j in range(per_node):
                v = Viewer(f"w{i}{'ab'[j]}", self, i, room=room)
                viewers.append(v)
                v.start()
        self.extra_rooms[room] = {"key": created["hostKey"], "viewers": viewers, "accepted_starts": 0}
        await self.until(lambda: all(v.connected() for v in viewers), 15, f"every viewer's snapshot of {room}")
        await asyncio.to_thread(wait_until, lambda: numsub(self.redis, room) >= len(self.nodes), 10,
                                f"every node subscribed to {room}")
        return room

    def rooms(self) -> list:
        """(room, its viewers, its accepted starts), the first room first."""
        return [(self.room, self.viewers, self.accepted_starts)] + [
            (r, e["viewers"], e["accepted_starts"]) for r, e in self.extra_rooms.items()]

    def all_viewers(self) -> list:
        return self.viewers + [v for e in self.extra_rooms.values() for v in e["viewers"]]

    # -- waiting ---------------------------------------------------------------------------

    async def until(self, pred, timeout: float, what: str) -> None:
        """Polls a predicate over the recorded state (cheap, in memory) with a deadline."""
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.1f} s waiting for {what}")
            await asyncio.sleep(0.02)

    def first(self, pred, viewers=None, since: int = 0):
        """The first message (data) any of `viewers` received at or after message count `since`
        (per viewer, see mark()) that matches."""
        for v in viewers or self.viewers:
            for m in list(v.messages())[since if isinstance(since, int) else since.get(v.name, 0):]:
                if pred(m["data"]):
                    return m["data"]
        return None

    def mark(self) -> dict:
        """Each viewer's message count now, to wait for messages after this point."""
        return {v.name: sum(len(s["messages"]) for s in v.segments) for v in self.viewers}

    async def wait_msg(self, pred, timeout: float, what: str, viewers=None, since=None) -> dict:
        found = {}

        def check():
            m = self.first(pred, viewers, since or 0)
            if m is not None:
                found["m"] = m
            return m is not None
        await self.until(check, timeout, what)
        return found["m"]

    def viewers_on(self, i: int) -> list:
        return [v for v in self.viewers if v.target == i]

    def others(self, *exclude: int) -> list:
        return [i for i in range(len(self.nodes)) if i not in exclude]

    # -- draws -----------------------------------------------------------------------------

    async def start_draw(self, i: int, expect_202: bool = True, room: Optional[str] = None) -> int:
        extra = self.extra_rooms.get(room) if room else None
        resp = await asyncio.to_thread(http.start_draw, self.nodes[i], room or self.room,
                                       extra["key"] if extra else self.key)
        if resp.status == 202:
            if extra:
                extra["accepted_starts"] += 1
            else:
                self.accepted_starts += 1
        self.log(f"start through n{i}{' in ' + room if room else ''}: {resp.status}")
        if expect_202:
            assert resp.status == 202, f"start through n{i} answered {resp.status}: {resp.body[:200]!r}"
        return resp.status

    async def start_draw_retrying(self, i: int, timeout: float = 20.0) -> None:
        """Starts a draw through node i, retrying a refusal (409 while an old draw still holds
        the lease, 503/404 while Redis is coming back) until `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            status = await self.start_draw(i, expect_202=False)
            if status == 202:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"no draw could be started through n{i} within {timeout:.0f} s (last {status})")
            await asyncio.sleep(0.3)

    async def started(self, since, timeout: float = 15.0, viewers=None) -> dict:
        return await self.wait_msg(lambda d: d.get("type") == "started", timeout, "a `started`", viewers, since)

    async def at_round(self, draw_id: str, k: int, timeout: float = 15.0, viewers=None) -> dict:
        return await self.wait_msg(lambda d: d.get("type") == "round" and d.get("drawId") == draw_id
                                   and d.get("round", 0) >= k, timeout, f"round {k} of {draw_id}", viewers)

    async def ended(self, draw_id: str, timeout: float = 20.0, viewers=None) -> dict:
        return await self.wait_msg(
            lambda d: (d.get("type") in TERMINAL and d.get("drawId") == draw_id)
            or (d.get("type") == "snapshot" and (d.get("lastResult") or {}).get("drawId") == draw_id),
            timeout, f"the end of {draw_id}", viewers)

    async def plain_draw(self, timeout: float = 30.0, room: Optional[str] = None) -> str:
        """After the faults: one more draw through a random node (in `room`, the first room by
        default), that every viewer of the room connected then sees from `started` to its end
        (the cluster works)."""
        viewers = self.extra_rooms[room]["viewers"] if room else self.viewers
        i = self.rng.randrange(len(self.nodes))
        mark = {v.name: sum(len(s["messages"]) for s in v.segments) for v in viewers}
        deadline = time.monotonic() + timeout
        while (status := await self.start_draw(i, expect_202=False, room=room)) != 202:
            if time.monotonic() > deadline:
                raise AssertionError(f"no draw could be started through n{i} within {timeout:.0f} s (last {status})")
            await asyncio.sleep(0.3)
        started = await self.started(mark, timeout=15, viewers=viewers)
        x = started["drawId"]
        self.log(f"plain draw {x} through n{i}{' in ' + room if room else ''}")
        await self.until(lambda: all(
            any((m["data"].get("type") in ("finished", "aborted") and m["data"].get("drawId") == x)
                for m in v.messages()) for v in viewers), 20, f"every viewer seeing the end of {x}")
        return x

    # -- faults ----------------------------------------------------------------------------

    def pause_node(self, i: int) -> None:
        self.nodes[i].signal(signal.SIGSTOP)
        self.stopped.add(i)
        self.log(f"SIGSTOP n{i}")

    def resume_node(self, i: int) -> None:
        self.nodes[i].signal(signal.SIGCONT)
        self.stopped.discard(i)
        self.log(f"SIGCONT n{i}")

    def kill_node(self, i: int) -> None:
        self.nodes[i].kill()
        self.killed.add(i)
        self.log(f"kill -9 n{i}")

    def restart_node(self, i: int, empty: bool) -> None:
        node = self.nodes[i]
        if empty:
            d = node._own_data_dir
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        node.restart()
        self.killed.discard(i)
        wait_until(lambda: http.api(node, "GET", "/healthz")[1].get("cluster") == "up", 20, "the node's Redis link")
        self.log(f"restarted n{i} ({'empty data dir' if empty else 'same data dir'})")

    def heal(self) -> None:
        """Everything running again: every paused process continued, every node's link to Redis
        healed (no drop, no latency, not cut), Redis started (from its AOF) if it is down, every
        killed node restarted on its data directory (a scenario that stalled may have left one
        down)."""
        for p in self.proxies:
            p.heal()
        for i in list(self.stopped):
            self.resume_node(i)
        self.redis.resume()
        if self.redis.proc is None:
            self.redis.start()
        for i in sorted(self.killed):
            self.restart_node(i, empty=False)

    def teardown(self) -> None:
        """Never leave a stopped process behind (SIGCONT before the launcher's SIGTERM), nor a
        proxy's thread."""
        for i in list(self.stopped):
            self.resume_node(i)
        self.redis.resume()
        for p in self.proxies:
            p.close()

    async def wait_healthy(self, timeout: float = 25.0) -> None:
        def ok():
            for n in self.nodes:
                try:
                    if http.api(n, "GET", "/healthz", timeout=2)[1].get("cluster") != "up":
                        return False
                except Exception:
                    return False
            return True
        await asyncio.to_thread(wait_until, ok, timeout, "every node's Redis link up")

    # -- history ---------------------------------------------------------------------------

    def seen_draw_ids(self, viewers=None) -> set:
        ids = set()
        for v in self.viewers if viewers is None else viewers:
            for m in v.messages():
                d = m["data"]
                if d.get("drawId"):
                    ids.add(d["drawId"])
                sd = d.get("draw") if d.get("type") == "snapshot" else None
                if sd and sd.get("drawId"):
                    ids.add(sd["drawId"])
                lr = d.get("lastResult") if d.get("type") == "snapshot" else None
                if lr and lr.get("drawId"):
                    ids.add(lr["drawId"])
        return ids

    def read_history(self, node, room: Optional[str] = None, viewers=None) -> dict:
        room = room or self.room
        out = {"listing": None, "listing_error": None, "records": {}}
        lines, cursor = [], None
        try:
            for _ in range(50):
                path = f"/api/rooms/{room}/draws?limit=100" + (f"&cursor={cursor}" if cursor else "")
                status, body = http.api(node, "GET", path, timeout=5)
                if status != 200:
                    out["listing_error"] = f"{status} {body}"
                    break
                lines += body["draws"]
                cursor = body.get("nextCursor")
                if not cursor:
                    out["listing"] = lines
                    break
        except Exception as e:  # noqa: BLE001 - a dead node is a finding, not a crash
            out["listing_error"] = repr(e)
        ids = self.seen_draw_ids(viewers) | {l["drawId"] for l in lines if l.get("drawId")}
        for x in sorted(ids):
            try:
                status, body = http.api(node, "GET", f"/api/draws/{x}", timeout=5)
            except Exception as e:  # noqa: BLE001
                status, body = repr(e), None
            out["records"][x] = {"status": status, "body": body}
        return out

    def histories(self, room: Optional[str] = None, viewers=None) -> dict:
        return {self.node_name(i): self.read_history(n, room, viewers) for i, n in enumerate(self.nodes)}

    async def late_snapshots(self, room: Optional[str] = None) -> dict:
        """What a viewer joining now is shown first on each node: node name -> its `snapshot`
        (or {"error": ...} when none came within 5 s). Taken after settling: none may show a draw
        still running (checker, late joiners)."""
        out = {}
        for i, node in enumerate(self.nodes):
            try:
                async with connect(node.ws_url(room or self.room), subprotocols=[SUBPROTOCOL_V1], compression=None,
                                   max_size=None, ping_interval=None, proxy=None, open_timeout=3,
                                   close_timeout=1) as ws:
                    while True:
                        d = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        if d.get("type") == "snapshot":
                            out[self.node_name(i)] = d
                            break
            except Exception as e:  # noqa: BLE001 - a node that shows nothing is a finding
                out[self.node_name(i)] = {"error": repr(e)}
        return out

    async def settle(self, room: Optional[str] = None, viewers=None) -> float:
        """Waits (at most SETTLE_S) until every node's history has every draw seen, ended and the
        same on every node; returns how long it took (SETTLE_S if it never did)."""
        t0 = time.monotonic()
        seen = self.seen_draw_ids(viewers)

        def settled():
            hs = self.histories(room, viewers)
            ends = set()
            for h in hs.values():
                if h["listing"] is None:
                    return False
                listed = {l["drawId"]: l["status"] for l in h["listing"]}
                if any(s == "running" for s in listed.values()) or not seen <= set(listed):
                    return False
                for x in seen:
                    r = h["records"].get(x) or {}
                    if r.get("status") != 200 or r["body"].get("status") == "running":
                        return False
                ends.add(tuple(sorted(listed.items())))
            return len(ends) == 1
        while time.monotonic() - t0 < SETTLE_S:
            if await asyncio.to_thread(settled):
                return time.monotonic() - t0
            await asyncio.sleep(0.3)
        return SETTLE_S
