"""The faults, one async function each, randomised by the run's `random.Random` (its seed is the
run's CHAOS_SEED): which node runs the draw, at which round the fault strikes, how long it lasts,
which node starts the next draw. Each leaves healing to the runner (run.py), which then runs one
more plain draw, settles and checks.

Waits are for events (a message, a predicate) with deadlines; the only sleeps are a fault's own
length (how long a process stays stopped or dead), chosen by the seed.
"""
import asyncio
import signal
import threading
import time

from helpers import http
from helpers.datasource import USERS

from cluster import LEASE_TTL_S, ROUNDS


def _watchers(c, *exclude):
    """The viewers on the nodes not in `exclude` (they see the draw through Redis)."""
    return [v for v in c.viewers if v.target not in exclude]


async def _draw_through(c, r: int, watchers=None) -> str:
    mark = c.mark()
    await c.start_draw(r)
    started = await c.started(mark, viewers=watchers)
    c.log(f"draw {started['drawId']} runs on n{r}")
    return started["drawId"]


async def pause_node(c, rng, new_draw: bool) -> None:
    """SIGSTOP of the node running a draw, past the lease (5–10 s against a 3 s TTL), then
    SIGCONT; with `new_draw`, a new draw is started through another node once the paused one's
    draw was taken over, and runs while the paused node is still stopped."""
    r, k, pause = rng.randrange(3), rng.randint(2, 7), rng.uniform(5.0, 10.0)
    c.log(f"pause n{r} at round {k} for {pause:.1f} s{' with a new draw meanwhile' if new_draw else ''}")
    watchers = _watchers(c, r)
    x = await _draw_through(c, r, watchers)
    await c.at_round(x, k, viewers=watchers)
    c.pause_node(r)
    t0 = time.monotonic()
    if new_draw:
        s = rng.choice(c.others(r))
        await c.ended(x, timeout=LEASE_TTL_S + 5, viewers=watchers)   # the takeover
        c.log(f"takeover seen {time.monotonic() - t0:.1f} s into the pause; next draw through n{s}")
        mark = c.mark()
        await c.start_draw_retrying(s, timeout=10)
        y = (await c.started(mark, viewers=watchers))["drawId"]
        # The new draw runs a little while the old node is still stopped: the pause lasts at
        # least until then.
        await c.at_round(y, rng.randint(1, 4), viewers=watchers)
    remaining = pause - (time.monotonic() - t0)
    if remaining > 0:
        await asyncio.sleep(remaining)   # the fault's length
    c.resume_node(r)
    c.log(f"paused {time.monotonic() - t0:.1f} s")


async def pause_redis(c, rng) -> None:
    """SIGSTOP of redis-server for 2–5 s at round k of a draw, then SIGCONT."""
    r, k, pause = rng.randrange(3), rng.randint(2, 7), rng.uniform(2.0, 5.0)
    c.log(f"pause redis at round {k} of a draw on n{r} for {pause:.1f} s")
    x = await _draw_through(c, r)
    await c.at_round(x, k)
    c.redis.pause()
    await asyncio.sleep(pause)           # the fault's length
    c.redis.resume()
    await c.ended(x, timeout=25, viewers=c.viewers_on(r))


async def kill_redis(c, rng, from_aof: bool) -> None:
    """kill -9 of redis-server at round k of a draw; started again after 0.3–2 s, from its AOF
    (fsync always: nothing acknowledged lost) or empty."""
    r, k, down = rng.randrange(3), rng.randint(2, 7), rng.uniform(0.3, 2.0)
    c.log(f"kill -9 redis at round {k} of a draw on n{r}, back {'from its AOF' if from_aof else 'empty'} after {down:.1f} s")
    x = await _draw_through(c, r)
    await c.at_round(x, k)
    c.redis.stop()
    await asyncio.sleep(down)            # the outage's length
    c.redis.start(empty=not from_aof)
    c.log("redis back")
    await c.ended(x, timeout=25, viewers=c.viewers_on(r))


async def kill_node(c, rng, when: str, empty_dir: bool) -> None:
    """kill -9 of the node running a draw: while it loads its lists (held by the list server),
    at round k, or right after the last round; then the node is started again on its data
    directory, or on an empty one."""
    r = rng.randrange(3)
    watchers = _watchers(c, r)
    down = rng.uniform(0.0, 2.0)
    if when == "loading":
        c.data_source.hold(USERS)
        try:
            c.log(f"kill -9 n{r} while its draw loads")
            mark = c.mark()
            await c.start_draw(r)
            await c.wait_msg(lambda d: d.get("type") == "loading", 10, "`loading`", watchers, mark)
            await asyncio.sleep(rng.uniform(0.0, 1.0))   # how long into the loading
            c.kill_node(r)
            await c.wait_msg(lambda d: d.get("type") in ("failed", "started"), LEASE_TTL_S + 6,
                             "the end of the lost loading", watchers, mark)
        finally:
            c.data_source.release()
    else:
        k = rng.randint(2, ROUNDS - 1) if when == "round" else ROUNDS
        c.log(f"kill -9 n{r} at round {k}")
        x = await _draw_through(c, r, watchers)
        await c.at_round(x, k, viewers=watchers)
        c.kill_node(r)
        await c.ended(x, timeout=LEASE_TTL_S + 8, viewers=watchers)
    await asyncio.sleep(down)            # how long the node stays dead
    await asyncio.to_thread(c.restart_node, r, empty_dir)


async def simultaneous_starts(c, rng) -> None:
    """Two starts through two different nodes, their threads released together."""
    a, b = rng.sample(range(3), 2)
    c.log(f"simultaneous starts through n{a} and n{b}")
    barrier = threading.Barrier(2)
    statuses = {}

    def start(i):
        barrier.wait(5)
        statuses[i] = http.start_draw(c.nodes[i], c.room, c.key).status

    mark = c.mark()
    threads = [threading.Thread(target=start, args=(i,)) for i in (a, b)]
    for t in threads:
        t.start()
    await asyncio.to_thread(lambda: [t.join(10) for t in threads])
    c.accepted_starts += sum(1 for s in statuses.values() if s == 202)
    c.log(f"answers: {statuses}")
    assert sorted(statuses.values()) in ([202, 409],), f"simultaneous starts answered {statuses}"
    x = (await c.started(mark))["drawId"]
    await c.ended(x, timeout=15)


async def move_viewers(c, rng) -> None:
    """Viewers moving node mid-draw: 2–4 times, at a random round, a random viewer closes its
    connection and reopens it on another node."""
    r = rng.randrange(3)
    moves = sorted(rng.sample(range(1, ROUNDS + 1), rng.randint(2, 4)))
    c.log(f"draw on n{r}, viewers move at rounds {moves}")
    x = await _draw_through(c, r)
    for k in moves:
        await c.at_round(x, k)
        v = rng.choice(c.viewers)
        to = rng.choice(c.others(v.target))
        c.log(f"{v.name} moves n{v.target} -> n{to} at round {k}")
        await v.move(to)
    await c.ended(x, timeout=15)
    await c.until(lambda: all(v.connected() for v in c.viewers), 10, "every moved viewer reconnected")


async def kill_node_restart_quick(c, rng) -> None:
    """kill -9 of the node running a draw at round k, started again on its data directory after
    0.3–5 s, whether or not the cluster has ended the draw meanwhile (systemd's Restart=always)."""
    r, k, down = rng.randrange(3), rng.randint(2, ROUNDS - 1), rng.uniform(0.3, 5.0)
    c.log(f"kill -9 n{r} at round {k}, restarted after {down:.1f} s")
    watchers = _watchers(c, r)
    x = await _draw_through(c, r, watchers)
    await c.at_round(x, k, viewers=watchers)
    c.kill_node(r)
    await asyncio.sleep(down)            # how long the node stays dead
    await asyncio.to_thread(c.restart_node, r, False)
    await c.ended(x, timeout=LEASE_TTL_S + 10)


async def partition_node(c, rng, first: int, last: int) -> None:
    """The running node's link to Redis silently dropped, both ways, nothing closed (its proxy
    discards every byte), at round k in first..last as its own viewers see it; healed after
    5–10 s (the lease is 3 s, the node's command timeout 2 s)."""
    r, k, length = rng.randrange(3), rng.randint(first, last), rng.uniform(5.0, 10.0)
    c.log(f"partition n{r} from redis at round {k} for {length:.1f} s")
    x = await _draw_through(c, r)
    await c.at_round(x, k, viewers=c.viewers_on(r))
    c.proxies[r].drop("both")
    await asyncio.sleep(length)          # the partition's length
    c.proxies[r].heal()
    c.log(f"partition healed ({c.proxies[r].dropped_bytes} bytes dropped)")
    await c.ended(x, timeout=15)


async def redis_latency(c, rng) -> None:
    """From round k, Redis answers the running node 1.5 s late (0.75 s each way through its
    proxy; the node's command timeout is 2 s) for 10 s, then at once again."""
    r, k = rng.randrange(3), rng.randint(2, 7)
    c.log(f"n{r}'s redis 1.5 s late from round {k} for 10 s")
    x = await _draw_through(c, r)
    await c.at_round(x, k, viewers=c.viewers_on(r))
    c.proxies[r].latency(0.75)
    await asyncio.sleep(10.0)            # the slow spell's length
    c.proxies[r].heal()
    await c.ended(x, timeout=15)


async def redis_down_node_cut_then_killed(c, rng) -> None:
    """Redis stopped (SIGSTOP or kill -9) at round k near the end, while the running node
    finishes its draw without it; then that node killed -9 before Redis is back; Redis back
    (continued, or from its AOF) 0.3–2 s later; the node restarted 2–20 s after its kill."""
    r, k, how = rng.randrange(3), rng.randint(7, ROUNDS - 1), rng.choice(["SIGSTOP", "kill -9"])
    back, restart = rng.uniform(0.3, 2.0), rng.uniform(2.0, 20.0)
    c.log(f"redis {how} at round {k} of a draw on n{r}; n{r} killed once its viewers saw the end, "
          f"redis back {back:.1f} s later, n{r} restarted {restart:.1f} s after its kill")
    x = await _draw_through(c, r)
    await c.at_round(x, k, viewers=c.viewers_on(r))
    c.redis.pause() if how == "SIGSTOP" else c.redis.stop()
    c.log(f"redis {how}")
    try:
        await c.ended(x, timeout=LEASE_TTL_S + 2, viewers=c.viewers_on(r))
    except AssertionError:
        c.log(f"n{r}'s viewers saw no end of {x} without Redis; killing n{r} anyway")
    c.kill_node(r)
    t_kill = time.monotonic()
    await asyncio.sleep(back)            # how long Redis stays down after the kill
    c.redis.resume() if how == "SIGSTOP" else c.redis.start()
    c.log("redis back")
    await asyncio.sleep(max(0.0, restart - (time.monotonic() - t_kill)))   # how long the node stays dead
    await asyncio.to_thread(c.restart_node, r, False)


async def sigterm_restart_multi_room(c, rng) -> None:
    """A node running draws in two rooms gets SIGTERM at round k and, by the seed: drains (its
    draws may finish), gets a second SIGTERM 0–0.5 s later (what still runs is aborted), or is
    killed -9 0–1 s into its drain (a supervisor's stop timeout); it is started again on its data
    directory as soon as it exited. Both rooms are checked."""
    r, k = rng.randrange(3), rng.randint(2, ROUNDS - 1)
    mode, gap = rng.choice(["drain", "second SIGTERM", "kill -9 in the drain"]), rng.uniform(0.0, 0.5)
    if mode == "kill -9 in the drain":
        gap *= 2
    room = await c.add_room(per_node=1)
    c.log(f"draws in {c.room} and {room} on n{r}, SIGTERM at round {k}"
          + (f", then {mode} {gap:.2f} s later" if mode != "drain" else ""))
    other = [v for v in c.extra_rooms[room]["viewers"] if v.target != r]
    x = await _draw_through(c, r)
    await c.start_draw(r, room=room)
    y = (await c.wait_msg(lambda d: d.get("type") == "started", 15, f"`started` in {room}", other))["drawId"]
    await c.at_round(x, k, viewers=c.viewers_on(r))
    node = c.nodes[r]
    node.signal(signal.SIGTERM)
    if mode != "drain":
        await asyncio.sleep(gap)
        node.signal(signal.SIGTERM if mode == "second SIGTERM" else signal.SIGKILL)
    code = await asyncio.to_thread(node.wait, 40)   # the drain is bounded by --shutdown-grace-ms
    assert code is not None, f"n{r} did not exit within 40 s of SIGTERM"
    c.killed.add(r)
    c.log(f"n{r} exited ({code})")
    await asyncio.to_thread(c.restart_node, r, False)
    await c.ended(x, timeout=15)
    await c.wait_msg(lambda d: d.get("type") in ("finished", "aborted") and d.get("drawId") == y, 15,
                     f"the end of {y} in {room}", other)


NEMESIS_S = 180.0


async def nemesis(c, rng) -> None:
    """Five nodes, three rooms, three minutes: draws started in the rooms in turn through random
    nodes while,
    every 2–4 s, a fault strikes a node that has none: SIGSTOP (1–5 s), kill -9 and a restart
    (0.3–5 s), a silent partition from Redis (2–8 s), a slow Redis link (0.3–0.9 s each way for
    2–6 s), or Redis itself paused (0.5–3 s). Faults overlap (each heals itself after its length);
    the runner heals whatever is left, runs one plain draw, settles and checks. `make chaos` only."""
    lengths = {"pause": (1.0, 5.0), "kill": (0.3, 5.0), "partition": (2.0, 8.0), "latency": (2.0, 6.0),
               "redis": (0.5, 3.0)}
    # The whole plan first, from the seed alone (a replay strikes the same way whatever the
    # processes' timing): (at s, fault, target, length, node a draw is started through).
    plan, free_at, t = [], {}, 0.0
    while t < NEMESIS_S:
        kind = rng.choice(sorted(lengths))
        length = rng.uniform(*lengths[kind])
        free = [i for i in range(len(c.nodes)) if free_at.get(i, 0.0) <= t]
        target = "redis" if kind == "redis" else (rng.choice(free) if free else None)
        if target is not None and free_at.get(target, 0.0) <= t:
            # A node killed is busy while it restarts too (up to a few seconds more).
            free_at[target] = t + length + (5.0 if kind == "kill" else 0.5)
        else:
            target = None
        starter = rng.choice(free) if free else None
        plan.append((t, kind, target, length, starter))
        t += rng.uniform(2.0, 4.0)       # the nemesis' pace
    # Three rooms (the first and two more, a viewer per node each), draws started in turn.
    rooms = [None, await c.add_room(per_node=1), await c.add_room(per_node=1)]
    c.log(f"nemesis: {len(c.nodes)} nodes, {len(rooms)} rooms, {len(plan)} faults over {NEMESIS_S:.0f} s")
    busy: set = set()        # what has a fault on it now ("redis" for Redis)
    tasks: list = []

    async def fault(kind: str, i, length: float) -> None:
        busy.add(i)
        try:
            if kind == "pause":
                c.pause_node(i)
                await asyncio.sleep(length)
                c.resume_node(i)
            elif kind == "kill":
                c.kill_node(i)
                await asyncio.sleep(length)
                await asyncio.to_thread(c.restart_node, i, False)
            elif kind in ("partition", "latency"):
                if kind == "partition":
                    c.proxies[i].drop("both")
                else:
                    c.proxies[i].latency(0.3 + 0.6 * (length - 2.0) / 4.0)   # 0.3–0.9 s each way
                c.log(f"{kind} n{i} for {length:.1f} s")
                await asyncio.sleep(length)
                c.proxies[i].heal()
                c.log(f"n{i}'s link healed")
            else:
                c.redis.pause()
                c.log(f"redis paused for {length:.1f} s")
                await asyncio.sleep(length)
                c.redis.resume()
                c.log("redis continued")
        finally:
            busy.discard(i)

    async def start(i, room) -> None:
        try:
            await c.start_draw(i, expect_202=False, room=room)
        except Exception as e:  # noqa: BLE001 - a stopped node times out: the checker judges the rest
            c.log(f"start through n{i}: {e!r}")

    t0 = time.monotonic()
    for n, (at, kind, target, length, starter) in enumerate(plan):
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))   # the plan's clock
        if starter is not None and starter not in busy:
            tasks.append(asyncio.create_task(start(starter, rooms[n % len(rooms)])))
        if target is not None:
            if target in busy:   # a restart took longer than planned: timing, not the seed
                c.log(f"skip {kind} of {target}: still busy")
            else:
                tasks.append(asyncio.create_task(fault(kind, target, length)))
    await asyncio.gather(*tasks, return_exceptions=True)


# Runs only in `make chaos` (CHAOS_RUNS set): too long for `make test`. name -> (factory, nodes).
LONG_FAULTS = {
    "nemesis": (nemesis, 5),
}

# name -> coroutine factory. What each broke before issue 27's fencing and history outbox (with
# seeds that replayed it then) is in README.md, "Before the fix".
FAULTS = {
    "pause-node": lambda c, rng: pause_node(c, rng, new_draw=False),
    "pause-node-new-draw": lambda c, rng: pause_node(c, rng, new_draw=True),
    "pause-redis": pause_redis,
    "kill-redis-empty": lambda c, rng: kill_redis(c, rng, from_aof=False),
    "kill-redis-aof": lambda c, rng: kill_redis(c, rng, from_aof=True),
    "kill-node-loading": lambda c, rng: kill_node(c, rng, "loading", empty_dir=False),
    "kill-node-round": lambda c, rng: kill_node(c, rng, "round", empty_dir=False),
    "kill-node-round-empty-dir": lambda c, rng: kill_node(c, rng, "round", empty_dir=True),
    "kill-node-after-last": lambda c, rng: kill_node(c, rng, "after-last", empty_dir=False),
    "simultaneous-starts": simultaneous_starts,
    "move-viewers": move_viewers,
    # issue 36
    "kill-node-restart-quick": kill_node_restart_quick,
    "partition-node-near-end": lambda c, rng: partition_node(c, rng, 7, 9),
    "partition-node-early": lambda c, rng: partition_node(c, rng, 2, 5),
    "redis-latency": redis_latency,
    "redis-down-node-cut-then-killed": redis_down_node_cut_then_killed,
    "sigterm-restart-multi-room": sigterm_restart_multi_room,
}
