"""A real redis-server for the cluster tests: its own free port on 127.0.0.1 and its own temporary
directory, no persistence. `stop()` ends it (as an outage would), `start()` brings it back on the
same port (empty: nothing was persisted), `close()` ends it and removes the directory.

With `aof=True` (Tests/cluster-faults) it writes an append-only file, fsynced after every write
(`--appendonly yes --appendfsync always`), so a kill -9 loses nothing acknowledged: `start()`
then comes back from that file, `start(empty=True)` from nothing (the directory wiped first).
`pause()`/`resume()` SIGSTOP/SIGCONT the process (a stalled Redis); `stop()` and `close()`
resume it first, so a paused Redis never outlives its test. `args` are more of redis-server's
options (e.g. `["--maxmemory-policy", "allkeys-lru"]`), given at every start.

Installed by `scripts/install-deps.sh --test` (Debian's redis-server); tests skip without it.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import Optional

import pytest

BINARY = shutil.which("redis-server") or ("/usr/bin/redis-server" if shutil.os.path.exists("/usr/bin/redis-server") else None)


def require_redis() -> None:
    """Skips the calling test when redis-server is not installed."""
    if BINARY is None:
        pytest.skip("redis-server is not installed (scripts/install-deps.sh --test installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    def __init__(self, aof: bool = False, args=()):
        require_redis()
        self.aof = aof
        self.args = list(args)
        self.paused = False
        self.port = _free_port()
        self.dir = tempfile.mkdtemp(prefix="live-draw-redis-")
        self.proc: Optional[subprocess.Popen] = None
        # The free port is released before redis-server binds it; if something took it in that
        # window, redis-server exits at once, and the first start takes another port.
        for attempt in range(5):
            try:
                self.start()
                return
            except RuntimeError as failure:
                if "exited" not in str(failure) or attempt == 4:
                    raise
                self.port = _free_port()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, empty: bool = False) -> "RedisServer":
        """Starts it on its port: from what its directory holds (the AOF, with `aof=True`), or
        from nothing with `empty=True` (the directory's files removed first)."""
        if empty:
            for name in os.listdir(self.dir):
                path = os.path.join(self.dir, name)
                shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        persistence = ["--appendonly", "yes", "--appendfsync", "always"] if self.aof else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            [BINARY, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             "--save", ""] + persistence + self.args,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.paused = False
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.ping():
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.proc.returncode}")
            time.sleep(0.02)
        raise RuntimeError("redis-server did not answer PING within 10 s")

    def ping(self) -> bool:
        try:
            return self.command("PING") == "+PONG"
        except OSError:
            return False

    def _ask(self, *args: str) -> tuple:
        """Sends one command over RESP; (the reply's first line, the socket, what came after it)."""
        parts = [f"*{len(args)}\r\n"] + [f"${len(a.encode())}\r\n{a}\r\n" for a in args]
        s = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        s.sendall("".join(parts).encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n")
        return head, s, rest

    def command(self, *args: str) -> str:
        """One command over RESP; the first reply line (enough for the tests' checks)."""
        head, s, _ = self._ask(*args)
        s.close()
        return head.decode("utf-8", "replace")

    def get(self, key: str) -> bytes | None:
        """GET of a whole value (a bulk reply, however long), `None` for a missing key."""
        head, s, rest = self._ask("GET", key)
        with s:
            if head == b"$-1":
                return None
            size = int(head[1:])
            while len(rest) < size + 2:
                rest += s.recv(65536)
            return rest[:size]

    def info(self, section: str) -> dict:
        """`INFO section` as field → value (text), e.g. info("memory")["used_memory"]."""
        head, s, rest = self._ask("INFO", section)
        with s:
            size = int(head[1:])
            while len(rest) < size + 2:
                rest += s.recv(65536)
        lines = rest[:size].decode().splitlines()
        return dict(line.split(":", 1) for line in lines if ":" in line and not line.startswith("#"))

    def fill(self, headroom: int = 2 << 20, value_size: int = 64 << 10) -> list:
        """Makes Redis full as a real deployment gets full: `maxmemory` set `headroom` bytes
        above what it uses now, then filler keys written until Redis answers `-OOM`. Then
        `maxmemory` goes a little below what it uses (a closed client's buffers freed could
        otherwise leave it just under, taking writes again by chance). Returns the filler keys:
        deleting them (`free`) makes room again."""
        used = int(self.info("memory")["used_memory"])
        assert self.command("CONFIG", "SET", "maxmemory", str(used + headroom)) == "+OK"
        keys, value = [], "x" * value_size
        for i in range(4 * headroom // value_size + 16):
            answer = self.command("SET", f"filler:{i}", value)
            if answer.startswith("-OOM"):
                break
            assert answer == "+OK", answer
            keys.append(f"filler:{i}")
        else:
            raise AssertionError("Redis never answered -OOM to the filler")
        used = int(self.info("memory")["used_memory"])
        assert self.command("CONFIG", "SET", "maxmemory", str(used - (128 << 10))) == "+OK"
        assert self.command("SET", "filler:probe", "x").startswith("-OOM")
        return keys

    def free(self, keys: list) -> None:
        """Deletes the filler keys `fill` wrote: what an operator does to free memory."""
        assert self.command("DEL", *keys) == f":{len(keys)}"
        assert self.command("SET", "filler:probe", "x") == "+OK", "Redis is still full"
        assert self.command("DEL", "filler:probe") == ":1"

    def pause(self) -> None:
        """SIGSTOP: connections stay open, nothing is answered (until resume())."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGSTOP)
            self.paused = True

    def resume(self) -> None:
        if self.proc and self.proc.poll() is None and self.paused:
            self.proc.send_signal(signal.SIGCONT)
        self.paused = False

    def stop(self) -> None:
        """kill -9 (an outage; with `aof=True` the AOF keeps every acknowledged write)."""
        if self.proc and self.proc.poll() is None:
            self.resume()
            self.proc.kill()
            self.proc.wait(5)
        self.proc = None
        self.paused = False

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def numsub(redis, room) -> int:
    """How many nodes listen to the room's channel (PUBSUB NUMSUB)."""
    with socket.create_connection(("127.0.0.1", redis.port), timeout=2) as s:
        ch = f"live-draw:events:{room}"
        s.sendall(f"*3\r\n$6\r\nPUBSUB\r\n$6\r\nNUMSUB\r\n${len(ch)}\r\n{ch}\r\n".encode())
        data = b""
        # *2 $len channel :count
        while data.count(b"\r\n") < 4:
            data += s.recv(4096)
    return int(data.split(b"\r\n")[3][1:])


def publish_raw(redis, room: str, payload: bytes) -> int:
    """PUBLISHes `payload` (any bytes, invalid UTF-8 included) straight to the room's event channel,
    as anyone who can reach Redis could; returns how many subscribers got it."""
    ch = f"live-draw:events:{room}".encode()
    parts = [b"PUBLISH", ch, payload]
    cmd = b"*3\r\n" + b"".join(b"$%d\r\n%s\r\n" % (len(p), p) for p in parts)
    with socket.create_connection(("127.0.0.1", redis.port), timeout=2) as s:
        s.sendall(cmd)
        data = b""
        while not data.endswith(b"\r\n"):
            data += s.recv(4096)
    assert data.startswith(b":"), data
    return int(data[1:-2])


def wait_until(predicate, timeout=15.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def history_says(node, room: str, draw_id: str, status: str, seed: str = None) -> bool:
    """Whether `node`'s record of the draw and the room's listing both say `status` (and the
    record `seed`): the shared history as that node answers it (docs/SCALING.md "One history")."""
    from . import http
    code, record = http.api(node, "GET", f"/api/draws/{draw_id}")
    if code != 200 or record["status"] != status or (seed is not None and record["seed"] != seed):
        return False
    code, page = http.api(node, "GET", f"/api/rooms/{room}/draws")
    lines = [d for d in page.get("draws", []) if d["drawId"] == draw_id] if code == 200 else []
    return len(lines) == 1 and lines[0]["status"] == status


def launch_node(launch, redis, **opts):
    """A live-draw node on `redis`, once its link to Redis is up: a node answers before its
    subscriber has connected, and refuses new rooms (503 cluster_unavailable) until then."""
    from . import http
    opts.setdefault("redis_url", redis.url)  # a test may put a proxy between the node and Redis
    node = launch(**opts)
    wait_until(lambda: http.api(node, "GET", "/healthz")[1].get("cluster") == "up", 15, "the node's Redis link")
    return node


async def start_when_watched(redis, room: str, viewers, nodes: int, starter=None, key: str = None,
                             catch_up: bool = False) -> None:
    """Waits for each viewer's snapshot and for `nodes` nodes to listen to the room's channel
    (an event published before a node subscribed never reaches it); then, given a `starter`
    node, starts a draw through its HTTP API with `key` (202 expected)."""
    import asyncio
    from . import http
    for viewer in viewers:
        await viewer.expect("snapshot")
    await asyncio.to_thread(wait_until, lambda: numsub(redis, room) >= nodes, 10, f"{nodes} node(s) subscribed")
    if starter is not None:
        resp = await asyncio.to_thread(http.start_draw, starter, room, key)
        # After Redis came back, new draws wait out the catch-up (lease TTL + 5 s, SCALING.md)
        # with 503 cluster_unavailable: a test that restarted Redis asks again until then.
        deadline = time.monotonic() + 3 + 5 + 3
        while catch_up and resp.status == 503 and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            resp = await asyncio.to_thread(http.start_draw, starter, room, key)
        assert resp.status == 202, resp.body


async def started_through(redis, room: str, viewer, starter, key: str, at_round: int):
    """Starts a draw of `room` through `starter` once `viewer`'s node listens to the room, and
    waits until `viewer` has seen round `at_round`; returns the draw's `started` message."""
    await start_when_watched(redis, room, [viewer], 1, starter, key)
    started, _ = await viewer.wait_for(lambda m: m.type == "started", 10)
    await viewer.wait_for(lambda m: m.type == "round" and m["round"] == at_round, 10)
    return started


async def killed_at_round(redis, room: str, viewer_node, runner, key: str, at_round: int = 3):
    """A viewer of `room` on `viewer_node` watches a draw started through `runner`, which is
    killed (SIGKILL) once the viewer saw round `at_round`; the viewer then waits for the draw's
    end. Returns the `started` message's data, the messages up to the end, the rounds the viewer
    saw, and when the kill was (time.monotonic())."""
    from .wsclient import WSClient
    viewer = await WSClient.open(viewer_node.ws_url(room), name=f"viewer-{viewer_node.port}")
    try:
        started = await started_through(redis, room, viewer, runner, key, at_round=at_round)
        runner.kill()
        killed_at = time.monotonic()
        end = await viewer.collect_draw(timeout=15)
        rounds = [m.data for m in viewer.log if m.type == "round"]
        return started.data, end, rounds, killed_at
    finally:
        await viewer.close()


async def redis_stopped_at_round(redis, node, room: str, key: str, at_round: int = 9, away_s: float = 3.0,
                                 while_away=None, restarted=None):
    """A viewer of `room` on `node` watches a draw started through `node`; Redis is stopped once
    the viewer saw round `at_round`, and started again, empty, `away_s` later (after
    `while_away()`, run meanwhile in a thread, if given; `restarted()` is called right after the
    restart). Issue 36, durable before visible: no
    step the cluster does not hold reaches a viewer, so while Redis is away the draw holds and its
    own node's viewers see nothing more of it either. Returns what the viewer got while Redis was
    away and what it got from the restart to the draw's end."""
    import asyncio
    from .wsclient import WSClient
    viewer = await WSClient.open(node.ws_url(room), name=f"viewer-{node.port}")
    try:
        await started_through(redis, room, viewer, node, key, at_round=at_round)
        redis.stop()
        until = time.monotonic() + away_s
        if while_away:
            await asyncio.to_thread(while_away)
        during = []
        while (left := until - time.monotonic()) > 0:
            try:
                during.append(await viewer.next_non_presence(left))
            except asyncio.TimeoutError:
                break
        redis.start(empty=True)
        if restarted:
            restarted()
        return during, await viewer.collect_draw(timeout=30)
    finally:
        await viewer.close()


async def viewers_at_round(redis, nodes, room: str, key: str, starter, at_round: int, watcher: int = 0):
    """One viewer of `room` on each of `nodes` (named viewer-a, viewer-b, …); a draw started
    through `starter` once every node listens to the room; returns the viewers once
    `nodes[watcher]`'s viewer has seen round `at_round`. The caller closes them (`close_all`)."""
    from .wsclient import WSClient, close_all
    viewers = []
    try:
        for i, node in enumerate(nodes):
            viewers.append(await WSClient.open(node.ws_url(room), name=f"viewer-{chr(ord('a') + i)}"))
        await start_when_watched(redis, room, viewers, len(nodes), starter, key)
        await viewers[watcher].wait_for(lambda m: m.type == "round" and m["round"] == at_round, 10)
        return viewers
    except BaseException:
        await close_all(viewers)
        raise
