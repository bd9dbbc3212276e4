"""A TCP proxy between one live-draw node and redis-server, to fault that node's link alone
(issue 36): the node's `--redis-url` names the proxy, the proxy forwards to Redis.

Controls, callable from any thread (each takes effect before it returns):

- `drop("both" | "to_upstream" | "to_client")`: a silent network cut as TCP lives through it:
  the packets are lost and nothing is closed (no FIN, no RST), so bytes read in that direction
  are held, not delivered, until `heal()`, and then delivered in order, as TCP's
  retransmissions deliver them once the network is back. Meanwhile the node's commands get no
  answer and its subscriber hears nothing, until its own timeouts give up on the link (it then
  closes the connection, and what was held for it goes with it). Bytes are never thrown away on
  a connection that stays open: TCP does not lose data silently, and a proxy that did would
  fault pub/sub in a way no network can (a message gone on a connection that looks healthy).
- `latency(seconds)`: every chunk, both directions, is delivered `seconds` after it was read,
  in order (a slow link, not a slow Redis: the delays overlap, they do not add up).
- `cut()`: every connection closed, new ones refused (the listening socket is closed too).
- `heal()`: all of the above undone; after a `cut()` it listens again on the same port.

Deterministic (no randomness of its own: the scenario's seed decides when and how long) and
bounded: one asyncio loop on one daemon thread; `close()` (the cluster's teardown) ends every
connection and the thread, and a chunk waits at most its latency.
"""
import asyncio
import threading
import time
from typing import Optional

DIRECTIONS = ("to_upstream", "to_client")


class FaultProxy:
    """Listens on 127.0.0.1:`port` (ephemeral, fixed for its life) and forwards to
    `target_host`:`target_port`."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port: Optional[int] = None
        self.accepted = 0                       # connections accepted so far (tests wait on it)
        self.dropped_bytes = {d: 0 for d in DIRECTIONS}   # held (not delivered) while cut
        self._dropping: set = set()
        self._latency = 0.0
        self._server: Optional[asyncio.AbstractServer] = None
        self._writers: set = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"fault-proxy->{target_port}",
                                        daemon=True)
        self._thread.start()
        self._call(self._listen())

    @property
    def url(self) -> str:
        """What a node's `--redis-url` says to go through this proxy."""
        return f"redis://127.0.0.1:{self.port}"

    # -- controls --------------------------------------------------------------------------

    def drop(self, direction: str = "both") -> None:
        """Silently holds what is read in `direction` ("both", "to_upstream": node -> Redis,
        "to_client": Redis -> node), on open connections and new ones, until heal(), which
        delivers it in order."""
        dirs = DIRECTIONS if direction == "both" else (direction,)
        assert all(d in DIRECTIONS for d in dirs), f"unknown direction {direction!r}"
        self._call(self._set(dropping=set(dirs)))

    def latency(self, seconds: float) -> None:
        """Delivers every chunk read from now on `seconds` late, both directions."""
        assert 0 <= seconds <= 30, "latency is bounded (a chunk waits at most 30 s)"
        self._call(self._set(latency=seconds))

    def cut(self) -> None:
        """Closes every connection (both sides get a FIN) and refuses new ones until heal()."""
        self._call(self._cut())

    def heal(self) -> None:
        """No drop, no latency; listening again if cut()."""
        self._call(self._heal())

    def close(self) -> None:
        """Ends every connection and the proxy's thread; safe to call twice."""
        if not self._loop.is_closed() and self._thread.is_alive():
            try:
                self._call(self._shutdown(), timeout=5)
            finally:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join(5)
        if not self._thread.is_alive() and not self._loop.is_closed():
            self._loop.close()

    # -- internals (on the proxy's loop) -----------------------------------------------------

    def _call(self, coro, timeout: float = 10):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    async def _set(self, dropping=None, latency=None) -> None:
        if dropping is not None:
            self._dropping = dropping
        if latency is not None:
            self._latency = latency

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port or 0,
                                                  reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            w.close()
        self._writers.clear()

    async def _shutdown(self) -> None:
        """cut(), then waits for every connection's tasks to end (none left pending)."""
        await self._cut()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _heal(self) -> None:
        self._dropping, self._latency = set(), 0.0
        if self._server is None:
            await self._listen()

    async def _serve(self, client_r, client_w) -> None:
        if self._server is None:          # accepted just as cut() closed the listener
            client_w.close()
            return
        try:
            up_r, up_w = await asyncio.wait_for(asyncio.open_connection(*self.target), 5)
        except (OSError, asyncio.TimeoutError):
            client_w.close()              # Redis is down: the node sees the connection end
            return
        self.accepted += 1
        self._writers |= {client_w, up_w}
        try:
            await asyncio.gather(self._pump(client_r, up_w, "to_upstream"), self._pump(up_r, client_w, "to_client"))
        except asyncio.CancelledError:
            pass                          # close(): end quietly (asyncio logs a cancelled handler)
        finally:
            for w in (client_w, up_w):
                w.close()
                self._writers.discard(w)

    async def _pump(self, reader, writer, direction: str) -> None:
        """Reads chunks and hands them, with their delivery time, to a writer task that keeps
        their order; on EOF passes the FIN on once what was queued is written."""
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while True:
                due, data = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                # A cut link delivers nothing, a FIN neither, until it heals (TCP retransmits).
                while direction in self._dropping:
                    await asyncio.sleep(0.01)
                if data is None:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        sender = asyncio.ensure_future(deliver())
        try:
            while True:
                data = await reader.read(65536)
                if direction in self._dropping and data:
                    self.dropped_bytes[direction] += len(data)
                queue.put_nowait((time.monotonic() + self._latency, data or None))
                if not data:
                    break
            await sender
        except (OSError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            sender.cancel()
            writer.close()


__all__ = ["FaultProxy", "DIRECTIONS"]
