"""Cluster mode's one history (issue 27, docs/SCALING.md "One history"): every draw's end reaches
the shared history once, from a durable outbox retried until Redis acknowledged it, so every
node's `GET /api/draws/ID` and the room's listing agree after a fault:

- kill -9 of the node running a draw at round 3: the node that takes over writes the draw's
  record as `interrupted` with the seed (bound: the lease lapses within its TTL, 3 s, and is
  taken over once seen free a full TTL more, 3 s, with a 1-s check on each side, plus a round
  trip: 9 s with slack); the dead node, restarted on its data directory, says
  `interrupted` with the same seed, and its own reconciled record does not replace the line;
- Redis stopped while a draw ends: once Redis is back (empty here, the harder case), every node
  reports the draw `finished` (bound: the reconnect, at most 5 s, plus a housekeeping tick, 1 s,
  plus a round trip: 8 s with slack).
"""
import time

from helpers import draw, http
from helpers.redis import history_says, killed_at_round, launch_node, redis_stopped_at_round, wait_until
from helpers.wsclient import run

# docs/SCALING.md, "One history".
TAKEOVER_BOUND_S = 3.0 + 3.0 + 2.0 + 1.0
REDIS_BACK_BOUND_S = 5.0 + 1.0 + 2.0


def test_kill_9_mid_draw_every_node_records_it_interrupted_with_the_seed(launch, redis):
    a = launch_node(launch, redis, round_interval_ms=300)
    b = launch_node(launch, redis, round_interval_ms=300)
    c = launch_node(launch, redis, round_interval_ms=300)
    created = http.created_room(b)
    room, key = created["room"], created["hostKey"]

    started, end, _, killed_at = run(killed_at_round(redis, room, b, a, key, at_round=3), timeout=40)
    aborted = end[-1]
    assert aborted.type == "aborted" and aborted["reason"] == "interrupted", aborted.raw
    draw_id, seed = started["drawId"], aborted["seed"]
    draw.assert_seed_matches(seed, started["commitment"])

    for node in (b, c):
        wait_until(lambda: history_says(node, room, draw_id, "interrupted", seed), 15, "the interrupted record on every node")
    took = time.monotonic() - killed_at
    print(f"one history: every live node says interrupted {took:.2f} s after kill -9")
    assert took <= TAKEOVER_BOUND_S, f"took {took:.2f} s"
    _, record = http.api(b, "GET", f"/api/draws/{draw_id}")
    assert record["roundsShown"] == aborted["roundsShown"] and record["verified"] is True, record
    taken_over = http.request(c, "GET", f"/api/draws/{draw_id}").body

    # The dead node restarts: its own record says interrupted with the same seed, and the
    # shared line stays the takeover's (one end per draw: its reconciled one is refused).
    a.restart()
    wait_until(lambda: http.api(a, "GET", "/healthz")[1].get("cluster") == "up", 15, "A's Redis link")
    wait_until(lambda: "the cluster already recorded another end for this draw" in a.log_text(), 15,
               "A's reconciled record refused")
    assert history_says(a, room, draw_id, "interrupted", seed)
    assert http.request(c, "GET", f"/api/draws/{draw_id}").body == taken_over
    assert history_says(b, room, draw_id, "interrupted", seed)


def test_a_draw_held_while_redis_was_away_is_finished_on_every_node(launch, redis):
    """Redis away for 5 s from round 9 (issue 36): the draw holds (nothing of it is shown or
    recorded as shown that the cluster does not hold), then goes on once Redis is back, and its
    one history line says `finished` on every node within the reconnect bound."""
    a = launch_node(launch, redis, round_interval_ms=200)
    b = launch_node(launch, redis, round_interval_ms=200)
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]

    back_at = []
    during, rest = run(redis_stopped_at_round(redis, a, room, key, at_round=9, away_s=5.0,
                                              restarted=lambda: back_at.append(time.monotonic())), timeout=60)
    assert [m for m in during if m.type not in ("heartbeat",)] == [], [m.raw for m in during]
    finished = rest[-1]
    assert finished.type == "finished", [m.raw for m in rest]
    draw_id = finished["drawId"]
    for node in (a, b):
        wait_until(lambda: history_says(node, room, draw_id, "finished", finished["seed"]), 20, "the finished record on every node")
    back_at = back_at[0]
    took = time.monotonic() - back_at
    print(f"one history: every node says finished {took:.2f} s after Redis was back")
    assert took <= REDIS_BACK_BOUND_S, f"took {took:.2f} s"
