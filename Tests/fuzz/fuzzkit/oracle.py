"""The fuzz oracle: after a batch, the server must still be alive and useful to a normal client.

Only three things count as failures: the process died, `/healthz` does not answer 200, or a normal
client (PyPI `websockets`, nothing of ours) does not get a full draw: `started`, every round,
`finished`, verified with tools/verify_draw.py. A long-lived viewer, connected since before the
first batch, must get the same draw too. Refusals a limiter may legitimately give a burst of
clients (429, 503, a refused connect) are retried with backoff, within a bound: the oracle runs
from its own address (127.0.0.2), so it should not be limited at all, but the limits are not
this suite's business.
"""
import asyncio
import signal
import time
from http.client import HTTPException
from typing import Optional

from websockets.exceptions import InvalidStatus

from helpers import draw, http
from helpers.wsclient import ConnectionClosedByServer, WSClient

ORACLE_SOURCE = "127.0.0.2"
RETRY_S = 20.0       # how long a refused or limited oracle step is retried
DRAW_TIMEOUT_S = 20.0
RETRY_STATUSES = (429, 503)


class OracleFailure(Exception):
    """The server failed the oracle; the message says how."""


class _Retry(Exception):
    """This attempt was refused in a way a limiter may legitimately refuse; try again."""


class Oracle:
    def __init__(self, server):
        self.server = server
        self.viewer: Optional[WSClient] = None

    def death(self) -> Optional[str]:
        rc = self.server.proc.poll()
        if rc is None:
            return None
        how = f"signal {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
        return f"the server process died ({how})"

    async def open_viewer(self) -> None:
        """The long-lived viewer; it reads everything (max_queue=None), so it is never slow."""
        self.viewer = await self._retry("open the long-lived viewer", lambda: self._open("long-lived viewer", max_queue=None))
        await self.viewer.expect("snapshot", timeout=10)

    async def health(self) -> Optional[str]:
        """The cheap part of the check: alive and /healthz answers. None if so; else what failed.

        /healthz is asked even to learn whether the process died: a Swift crash spends a
        fraction of a second printing its backtrace before the process exits."""
        return await self.check(full=False)

    async def check(self, full: bool = True) -> Optional[str]:
        """None if the server passed; else what failed."""
        try:
            if self.death():
                raise OracleFailure(self.death())
            await self._retry("GET /healthz", self._healthz)
            if full:
                await self._draw()
        except OracleFailure as e:
            return self.death() or str(e)
        except (AssertionError, asyncio.TimeoutError, ConnectionClosedByServer) as e:
            return self.death() or f"a normal client's draw failed: {type(e).__name__}: {e}"
        return self.death()

    async def close(self) -> None:
        if self.viewer:
            await self.viewer.close()

    # -- steps -------------------------------------------------------------------------------

    async def _retry(self, what: str, attempt):
        delay, deadline, last = 0.05, time.monotonic() + RETRY_S, None
        while True:
            try:
                return await attempt()
            except _Retry as e:
                last = e
                print(f"    oracle: {what}: {e}; retrying", flush=True)
            if self.death():
                raise OracleFailure(self.death())
            if time.monotonic() + delay > deadline:
                raise OracleFailure(f"{what}: still refused after {RETRY_S:g} s: {last}")
            await asyncio.sleep(delay)  # backoff a limiter asked for, not a wait for a condition
            delay = min(1.0, delay * 2)

    async def _request(self, fn, *args):
        try:
            resp = await asyncio.to_thread(fn, self.server, *args, timeout=5, source=ORACLE_SOURCE)
        except (OSError, HTTPException) as e:
            raise _Retry(f"{type(e).__name__}: {e}") from None
        if resp.status in RETRY_STATUSES:
            raise _Retry(f"HTTP {resp.status}")
        return resp

    async def _healthz(self) -> None:
        resp = await self._request(http.request, "GET", "/healthz")
        if resp.status != 200 or resp.json.get("status") != "ok":
            raise OracleFailure(f"/healthz answered {resp.status} {resp.body[:200]!r}")

    async def _open(self, name: str, **kw) -> WSClient:
        try:
            return await WSClient.open(self.server.ws_url("lobby"), name=name, timeout=5,
                                       local_addr=(ORACLE_SOURCE, 0), **kw)
        except InvalidStatus as e:
            if e.response.status_code in RETRY_STATUSES:
                raise _Retry(f"upgrade answered {e.response.status_code}") from None
            raise OracleFailure(f"a normal client's upgrade was refused: {e}") from None
        except (OSError, asyncio.TimeoutError) as e:
            raise _Retry(f"{type(e).__name__}: {e}") from None

    async def _start(self) -> None:
        resp = await self._request(http.start_draw, "lobby", self.server.lobby_key)
        if resp.status == 409:
            raise _Retry("409 draw_running")
        if resp.status != 202:
            raise OracleFailure(f"starting a draw answered {resp.status} {resp.body[:200]!r}")

    async def _draw(self) -> None:
        client = await self._retry("open a normal client", lambda: self._open("normal client"))
        try:
            await client.expect("snapshot", timeout=10)
            await self._retry("start a draw", self._start)
            seq = [m for m in await client.collect_draw(timeout=DRAW_TIMEOUT_S) if m.type != "loading"]
            types = [m.type for m in seq]
            rounds = len(seq) - 2
            assert types == ["started"] + ["round"] * rounds + ["finished"] and rounds >= 1, \
                f"a normal client saw {types}"
            draw.assert_verifies(seq[-1].data, seq[0].data, [m.data for m in seq[1:-1]])
            await self._viewer_saw(seq[0]["drawId"], types)
        finally:
            await client.close()

    async def _viewer_saw(self, draw_id: str, expected: list) -> None:
        if self.viewer is None:  # triage servers have none: each lives for a few cases only
            return
        try:
            finished, skipped = await self.viewer.wait_for(
                lambda m: m.type == "finished" and m.get("drawId") == draw_id, timeout=DRAW_TIMEOUT_S)
        except (asyncio.TimeoutError, ConnectionClosedByServer) as e:
            raise OracleFailure(f"the long-lived viewer did not get the draw: {e}") from None
        types = [m.type for m in skipped if m.get("drawId") == draw_id] + [finished.type]
        if types != expected:
            raise OracleFailure(f"the long-lived viewer saw {types}, the new client {expected}")
