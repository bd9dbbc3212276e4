"""One seeded run of one fault: a fresh redis-server (AOF) and three nodes, six viewers, the
fault, healing, one more plain draw, the settle time, then the checker over everything."""
import asyncio
import json
import os
import random
import time
from pathlib import Path

import checker
from cluster import SETTLE_S, Cluster
from helpers.redis import RedisServer
from scenarios import FAULTS, LONG_FAULTS, NEMESIS_S

# Issue 36: after the last fault of the nemesis heals, a new draw is accepted and finished in
# every room within this many seconds (every node's link up, the start, ten 200 ms rounds).
RECOVERY_BOUND_S = 10.0

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "cluster-faults"


class RunResult:
    def __init__(self, fault, seed):
        self.fault, self.seed = fault, seed
        self.violations: list = []
        self.notes: list = []       # the scenario or the plain draw could not go on
        self.settle_s = None
        self.recovered_s = None     # healing to a new draw finished in every room
        self.seconds = None
        self.log: list = []

    @property
    def ok(self) -> bool:
        return not self.violations and not self.notes

    def report(self) -> str:
        head = f"fault {self.fault}, CHAOS_SEED={self.seed}: "
        if self.ok:
            return head + f"every promise held (settled in {self.settle_s:.1f} s, run {self.seconds:.1f} s)"
        lines = [head + f"{len(self.violations)} broken promise(s), {len(self.notes)} stall(s)"]
        lines += [f"  - {v}" for v in self.violations[:40]]
        if len(self.violations) > 40:
            lines.append(f"  … and {len(self.violations) - 40} more")
        lines += [f"  - could not go on: {n}" for n in self.notes]
        lines.append(f"  replay: CHAOS_SEED={self.seed} python3 -m pytest Tests/cluster-faults -k '{self.fault}'")
        return "\n".join(lines)


def run_fault(fault: str, seed: int, launch, data_source) -> RunResult:
    res = RunResult(fault, seed)
    rng = random.Random(f"{fault}:{seed}")
    t_start = time.monotonic()

    def log(text):
        line = f"[{time.monotonic() - t_start:6.2f}s] {text}"
        res.log.append(line)
        print(line, flush=True)

    log(f"fault {fault} CHAOS_SEED={seed}")
    redis = RedisServer(aof=True)
    c = Cluster(redis, launch, data_source, rng, log)
    try:
        scenario, nodes = (FAULTS[fault], 3) if fault in FAULTS else LONG_FAULTS[fault]
        c.start_nodes(nodes)

        async def main():
            await c.open_viewers(2)
            try:
                await scenario(c, rng)
            except AssertionError as e:
                res.notes.append(f"during the fault: {e}")
                log(f"scenario stalled: {e}")
            finally:
                await asyncio.to_thread(c.heal)   # viewers keep recording meanwhile
            healed = time.monotonic()
            try:
                await c.wait_healthy()
                # One plain draw in every room at once; the time from healing to the last room's
                # end is what an operator waits for the cluster to take draws again.
                rooms = [None] + [room for room, _, _ in c.rooms()[1:]]
                await asyncio.gather(*(c.plain_draw(room=room) for room in rooms))
                res.recovered_s = time.monotonic() - healed
                log(f"a new draw accepted and finished in every room {res.recovered_s:.1f} s after healing")
                if fault in LONG_FAULTS and res.recovered_s > RECOVERY_BOUND_S:
                    res.notes.append(f"a new draw in every room took {res.recovered_s:.1f} s after the last fault "
                                     f"healed (bound {RECOVERY_BOUND_S:.0f} s)")
            except AssertionError as e:
                res.notes.append(f"after healing, the cluster did not run a plain draw to every viewer: {e}")
                log(f"plain draw: {e}")
            res.settle_s = await c.settle()
            for room, viewers, _ in c.rooms()[1:]:
                res.settle_s += await c.settle(room, viewers)
            log(f"settled in {res.settle_s:.1f} s (bound {SETTLE_S:.0f} s a room)")
            for room, _, _ in c.rooms():
                late[room] = await c.late_snapshots(room)
            for v in c.all_viewers():
                await v.stop()

        late: dict = {}
        asyncio.run(asyncio.wait_for(main(), 150 + (NEMESIS_S if fault in LONG_FAULTS else 0)))
        transcripts, histories = {}, {}
        for room, viewers, accepted in c.rooms():
            transcripts[room] = [v.transcript() for v in viewers]
            histories[room] = c.histories(room, viewers)
            found = checker.check(transcripts[room], histories[room], accepted, late.get(room))
            # The first room's findings read as before; another room's say which room.
            res.violations += found if room == c.room else [
                checker.Violation(v.rule, f"room {room}: {v.text}") for v in found]
        res.seconds = time.monotonic() - t_start
        log(res.report())
        if not res.ok or os.environ.get("CHAOS_KEEP"):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            path = ARTIFACTS / f"{fault}-{seed}.json"
            path.write_text(json.dumps({"fault": fault, "seed": seed, "log": res.log, "transcripts": transcripts,
                                        "histories": histories, "late_snapshots": late,
                                        "accepted_starts": {r: a for r, _, a in c.rooms()},
                                        "violations": [str(v) for v in res.violations], "notes": res.notes}))
            log(f"transcripts and histories: {path}")
    finally:
        c.teardown()
        redis.close()
    return res
