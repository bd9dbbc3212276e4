"""A fuzz campaign: batches of cases until the time budget is spent, the oracle after each batch,
and on failure a triage that finds the case that reproduces it alone, with its exact bytes.
"""
import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from . import guards
from .config import FuzzConfig
from .oracle import Oracle
from .runner import FUZZ_SOURCES, run_case

REPO = Path(__file__).resolve().parents[3]
ARTIFACTS = REPO / "artifacts" / "fuzz"
TRIAGE_S = 90.0   # time allowed to pin a failure on one case


@dataclass
class Played:
    case: object
    started: float
    outcome: str = "not played"


@dataclass
class Campaign:
    kind: str                  # "ws" or "http"
    test: str                  # the pytest name, for the rerun commands
    generate: Callable         # (seed, batch, index, guards) -> Case
    launch: Callable           # the e2e launcher: () -> ServerProcess
    config: FuzzConfig

    async def run(self) -> str:
        """Fuzz; return a one-line summary, or raise AssertionError with the failure report."""
        cfg, t0 = self.config, time.monotonic()
        active = guards.active(cfg.unguarded)
        print(f"fuzz {self.kind}: {cfg.describe()}; replay: LIVE_DRAW_FUZZ_SEED={cfg.seed} "
              f"python3 -m pytest Tests/fuzz -k {self.test}", flush=True)
        server = self.launch()
        oracle = Oracle(server)
        await oracle.open_viewer()
        played_total, outcomes = 0, {}
        try:
            for batch in self._batches(t0):
                indices = [cfg.only_case] if cfg.only_case is not None else range(cfg.cases_per_batch)
                cases = [self.generate(cfg.seed, batch, i, active) for i in indices]
                if cfg.only_case is not None:
                    print(cases[0].describe(), flush=True)
                played = await self._play(server, cases)
                failure = await oracle.check()
                played_total += len(played)
                for p in played:
                    key = ",".join(p.outcome.split("; ")[-1].split(",")[:2]).strip()
                    outcomes[key] = outcomes.get(key, 0) + 1
                print(f"  batch {batch}: {len(played)} cases, {time.monotonic() - t0:.1f} s, "
                      f"{'FAILED: ' + failure if failure else 'server fine'}", flush=True)
                if failure:
                    raise AssertionError(await self._report(failure, batch, played, server,
                                                            time.monotonic() - t0))
        finally:
            await oracle.close()
        top = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items(), key=lambda kv: -kv[1])[:6])
        return (f"fuzz {self.kind}: seed {cfg.seed}, {played_total} cases in {time.monotonic() - t0:.1f} s, "
                f"server fine after every batch ({top})")

    def _batches(self, t0: float):
        if self.config.only_batch is not None:
            yield self.config.only_batch
            return
        batch = 0
        while batch == 0 or time.monotonic() - t0 < self.config.seconds:
            yield batch
            batch += 1

    async def _play(self, server, cases: list) -> list:
        """Every case on its own socket, `concurrency` at a time, from rotating fuzz addresses."""
        loop = asyncio.get_running_loop()
        played = []

        def one(i, case):
            p = Played(case, time.monotonic())
            played.append(p)
            p.outcome = run_case(server.host, server.port, case, FUZZ_SOURCES[i % len(FUZZ_SOURCES)])
            return p

        with ThreadPoolExecutor(self.config.concurrency) as pool:
            await asyncio.gather(*(loop.run_in_executor(pool, one, i, c) for i, c in enumerate(cases)))
        return played

    async def _report(self, failure: str, batch: int, played: list, server, elapsed: float) -> str:
        cfg = self.config
        rerun = f"python3 -m pytest Tests/fuzz -k {self.test}"
        unguard = " LIVE_DRAW_FUZZ_UNGUARDED=1" if cfg.unguarded else ""
        dump = self._dump(batch, played)
        lines = [f"FUZZ FAILURE ({self.kind}): {failure}",
                 f"  seed {cfg.seed}, batch {batch}: {len(played)} case(s) ({cfg.describe()}), "
                 f"found after {elapsed:.1f} s",
                 f"  replay the batch: LIVE_DRAW_FUZZ_SEED={cfg.seed} LIVE_DRAW_FUZZ_BATCH={batch}{unguard} {rerun}",
                 f"  every case of the batch, its bytes and the server's answers: {dump}"]
        culprit = await self._triage(failure, played) if len(played) > 1 else (played[0].case, [])
        if culprit:
            case, before = culprit
            how = (f"on a fresh server, after cases {', '.join(c.case_id for c in before)}" if before
                   else "alone, on a fresh server")
            lines += [f"  reproduces {how}: LIVE_DRAW_FUZZ_CASE={case.case_id}{unguard} {rerun}",
                      _indent(case.describe(), 4)]
        else:
            lines.append(f"  no single case of the batch reproduces it within {TRIAGE_S:g} s: replay the batch")
        lines += ["  server log:", _indent(_log_excerpt(server), 4)]
        return "\n".join(lines)

    def _dump(self, batch: int, played: list) -> str:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.kind}-seed{self.config.seed}-batch{batch}.txt"
        text = "\n\n".join(f"{p.case.describe(max_bytes=1 << 20)}\n  -> {p.outcome}"
                           for p in sorted(played, key=lambda p: p.started))
        path.write_text(text + "\n")
        return str(path.relative_to(REPO))

    async def _triage(self, failure: str, played: list) -> Optional[tuple]:
        """Replay the batch's cases, latest-started first, on fresh servers until one fails the
        oracle. Returns (that case, the cases it needed before it on the same server) or None.

        A crash only needs the server alive to go on, so one server takes suspects until one
        kills it; any other failure needs the full oracle, so each suspect gets its own server."""
        deadline = time.monotonic() + TRIAGE_S
        suspects = [p.case for p in sorted(played, key=lambda p: -p.started)]
        dead_only = failure.startswith("the server process died")
        server, ran = None, []
        for case in suspects:
            if time.monotonic() > deadline:
                return None
            if server is None:
                server, ran = self.launch(), []
            await asyncio.to_thread(run_case, server.host, server.port, case, FUZZ_SOURCES[0])
            if await Oracle(server).check(full=not dead_only):
                if not ran:
                    return case, []
                again = self.launch()
                await asyncio.to_thread(run_case, again.host, again.port, case, FUZZ_SOURCES[0])
                alone = bool(await Oracle(again).check(full=not dead_only))
                return case, [] if alone else ran
            ran.append(case)
            if not dead_only:
                server.stop()  # the oracle ran a draw on it: start the next suspect clean
                server = None
        return None


def _log_excerpt(server) -> str:
    """The crash message and the top of its backtrace if there is one, else the last lines."""
    lines = server.lines
    for i, line in enumerate(lines):
        if "Swift runtime failure" in line or "Fatal error" in line or line.startswith("*** Signal"):
            return "\n".join(lines[i:i + 12])
    return "\n".join(lines[-25:])


def _indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())
