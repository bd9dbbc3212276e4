"""An independent WebSocket client (PyPI `websockets`) that records every message it receives.

Why a wrapper: the tests reason about *sequences* (snapshot, then loading, then …), so every
message is kept in `log` with its raw text (for byte-identity checks) and its local receive time
(for latency checks), and consumed through a cursor so waiting for one message never loses the
ones that came before it. Every message passes the host-key leak check (helpers.keys).

Everything waits with a timeout; nothing sleeps and hopes.
"""
import asyncio
import collections
import itertools
import json
import time
from dataclasses import dataclass
from typing import Callable, Optional

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import DATA_OPCODES, Frame

from . import keys
from .protocol import SUBPROTOCOL_V1

TERMINAL = ("finished", "failed", "aborted")
_ping_ids = itertools.count(1000)


def now_ms() -> float:
    """Epoch milliseconds, the same clock the server stamps `sentAt`/`startedAt` with."""
    return time.time() * 1000.0


@dataclass
class Msg:
    raw: str
    data: dict
    at: float  # local arrival time of its last frame, epoch ms

    @property
    def type(self) -> str:
        return self.data.get("type")

    def __getitem__(self, k):
        return self.data[k]

    def get(self, k, default=None):
        return self.data.get(k, default)


class StampingConnection(ClientConnection):
    """Notes when each message's last frame came off the socket.

    Why not stamp when the test reads the message: tests read lazily, so a message could wait in
    the library's queue while this one process parsed another client's 2 MB `started`; its `at`
    then measured the test, not the server (a CI run failed a 600 ms delivery bound that way)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.arrivals: collections.deque[float] = collections.deque()

    def process_event(self, event) -> None:
        if isinstance(event, Frame) and event.opcode in DATA_OPCODES and event.fin:
            self.arrivals.append(now_ms())
        super().process_event(event)


@dataclass
class Closed:
    """How the server ended the connection: close frame code (1006 if none) and reason."""
    code: int
    reason: str


class WSClient:
    def __init__(self, ws, name: str):
        self.ws = ws
        self.name = name
        self.log: list[Msg] = []
        self.cursor = 0
        self.closed: Optional[Closed] = None
        self.viewers: Optional[int] = None
        self.keep_heartbeats = False
        self.heartbeats: list[Msg] = []

    @classmethod
    async def open(cls, url: str, name: str = "", subprotocols=(SUBPROTOCOL_V1,), timeout: float = 10.0, **kw):
        """Speaks v1 unless told otherwise: the suite's draw tests read the entrants from the
        messages, as every client written before v2 does, so they keep v1 served as it was;
        test_entrants.py speaks v2 (`subprotocols=(SUBPROTOCOL,)`)."""
        options = dict(compression=None, max_size=None, ping_interval=None, proxy=None,
                       open_timeout=timeout, close_timeout=2, create_connection=StampingConnection)
        options.update(kw)
        ws = await connect(url, subprotocols=list(subprotocols) if subprotocols else None, **options)
        return cls(ws, name or url)

    # -- receiving -------------------------------------------------------------------------

    async def _pull(self, timeout: float) -> Msg:
        """The next message, heartbeats set aside (in `heartbeats`) unless `keep_heartbeats`: a
        quiet room sends one every few seconds, and tests that wait for something else would
        otherwise trip over them."""
        deadline = time.monotonic() + timeout
        while True:
            msg = await self._pull_any(max(0.001, deadline - time.monotonic()))
            if msg.type != "heartbeat" or self.keep_heartbeats:
                self.log.append(msg)
                return msg
            self.heartbeats.append(msg)

    async def _pull_any(self, timeout: float) -> Msg:
        if self.closed:
            raise ConnectionClosedByServer(self.closed)
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except ConnectionClosed as e:
            self.closed = Closed(e.rcvd.code if e.rcvd else 1006, e.rcvd.reason if e.rcvd else "")
            raise ConnectionClosedByServer(self.closed) from None
        except asyncio.TimeoutError:
            raise asyncio.TimeoutError(
                f"{self.name}: no message within {timeout:.1f}s; last ones: {self.tail()}") from None
        assert isinstance(raw, str), f"{self.name}: server sent a binary frame: {raw[:80]!r}"
        keys.check(raw, f"WebSocket message to {self.name}")
        data = json.loads(raw)
        assert isinstance(data, dict) and isinstance(data.get("type"), str), f"not a typed JSON object: {raw[:200]}"
        arrivals = getattr(self.ws, "arrivals", None)
        msg = Msg(raw, data, arrivals.popleft() if arrivals else now_ms())
        if msg.type in ("snapshot", "presence"):
            self.viewers = data["viewers"]
        elif msg.type == "round" and "viewers" in data:
            self.viewers = data["viewers"]  # rounds carry the count while a draw runs (no presence)
        return msg

    async def next(self, timeout: float = 5.0) -> Msg:
        """The next unconsumed message (any type)."""
        if self.cursor == len(self.log):
            await self._pull(timeout)
        msg = self.log[self.cursor]
        self.cursor += 1
        return msg

    async def next_non_presence(self, timeout: float = 5.0) -> Msg:
        deadline = time.monotonic() + timeout
        while True:
            msg = await self.next(max(0.001, deadline - time.monotonic()))
            if msg.type != "presence":
                return msg

    async def expect(self, type_: str, timeout: float = 5.0) -> Msg:
        """The next non-presence message, which must be of `type_`."""
        msg = await self.next_non_presence(timeout)
        assert msg.type == type_, f"{self.name}: expected {type_}, got {msg.raw[:300]}"
        return msg

    async def wait_for(self, pred: Callable[[Msg], bool], timeout: float = 5.0):
        """Consume messages until one matches; return (match, non-presence messages skipped)."""
        deadline = time.monotonic() + timeout
        skipped = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise asyncio.TimeoutError(f"{self.name}: condition not met within {timeout}s; got {self.tail()}")
            msg = await self.next(remaining)
            if pred(msg):
                return msg, skipped
            if msg.type != "presence":
                skipped.append(msg)

    async def wait_viewers(self, n: int, timeout: float = 5.0) -> None:
        """Wait until the room's viewer count (snapshot/presence, or the last round's) reads `n`;
        presence only in between."""
        if self.viewers == n and self.cursor == len(self.log):
            return
        _, skipped = await self.wait_for(lambda m: m.type in ("snapshot", "presence") and m["viewers"] == n, timeout)
        skipped = [m for m in skipped if m.type != "snapshot"]
        assert not skipped, f"{self.name}: unexpected messages while waiting for presence: {[m.raw[:120] for m in skipped]}"

    async def collect_draw(self, timeout: float = 10.0) -> list[Msg]:
        """Non-presence messages up to and including the next finished/failed/aborted."""
        deadline = time.monotonic() + timeout
        out = []
        while True:
            msg = await self.next_non_presence(max(0.001, deadline - time.monotonic()))
            out.append(msg)
            if msg.type in TERMINAL:
                return out

    async def barrier(self, timeout: float = 5.0) -> list[Msg]:
        """Send a ping and wait for its pong; return the non-presence messages that came first.

        The server answers a connection's messages in order, so anything its earlier messages
        caused *for this connection* (an error, a broadcast it triggered) is queued before the pong.
        """
        pid = next(_ping_ids)
        await self.send_json({"type": "ping", "id": pid})
        _, skipped = await self.wait_for(lambda m: m.type == "pong" and m.get("id") == pid, timeout)
        return skipped

    async def expect_close(self, timeout: float = 5.0) -> tuple[Closed, list[Msg]]:
        """Read until the server closes; return how, and the non-presence messages before it."""
        deadline = time.monotonic() + timeout
        before = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise asyncio.TimeoutError(f"{self.name}: still open after {timeout}s; got {self.tail()}")
            try:
                msg = await self.next(remaining)
            except ConnectionClosedByServer as e:
                return e.closed, before
            if msg.type != "presence":
                before.append(msg)

    # -- sending ---------------------------------------------------------------------------

    async def send_json(self, obj) -> None:
        await self.ws.send(json.dumps(obj))

    async def send_raw(self, data) -> None:
        await self.ws.send(data)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(), 3)
        except Exception:
            pass

    def tail(self, n: int = 5) -> list[str]:
        return [m.raw[:160] for m in self.log[-n:]] + ([f"closed {self.closed}"] if self.closed else [])


class ConnectionClosedByServer(Exception):
    def __init__(self, closed: Closed):
        super().__init__(f"connection closed: {closed.code} {closed.reason!r}")
        self.closed = closed


async def open_many(url: str, n: int, prefix: str = "c", **kw) -> list[WSClient]:
    """Open `n` clients concurrently (a join storm)."""
    return list(await asyncio.gather(*(WSClient.open(url, name=f"{prefix}{i}", **kw) for i in range(n))))


async def close_all(clients) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def run(coro, timeout: float = 60.0):
    """Run one async scenario with a hard upper bound, from a plain (sync) pytest test."""
    return asyncio.run(asyncio.wait_for(coro, timeout))
