"""A node paused past its lease (issue 27, findings 1 and 2), as a VM migration or a stalled disk
pauses one: SIGSTOP of the node running a draw; another node ends the draw as `interrupted` with
its seed (once the lease has been free a full TTL), then SIGCONT.

Fenced (docs/SCALING.md "Fencing"): the woken node cannot prove it still holds the lease, so it
shows nothing more before asking Redis; its renewal is refused (a newer token holds the room), so
it stops the draw and shows its own viewers the end the cluster recorded — the takeover's, the
very bytes the other node's viewers got. Nothing of its draw reaches any node after the end, and
a new draw started elsewhere at once runs alone. Real redis-server, real nodes, bounded waits.
"""
import asyncio
import signal

from helpers import draw, http
from helpers.redis import launch_node, viewers_at_round, wait_until
from helpers.wsclient import close_all, run

DRAW_TYPES = {"loading", "started", "round", "finished", "failed", "aborted"}


def test_a_node_woken_after_a_takeover_shows_everyone_the_takeovers_end_and_nothing_more(launch, redis):
    a = launch_node(launch, redis, round_interval_ms=300, rounds=20)
    b = launch_node(launch, redis, round_interval_ms=300, rounds=20)
    created = http.created_room(b)
    room, key = created["room"], created["hostKey"]

    async def scenario():
        on_a, on_b = await viewers_at_round(redis, [a, b], room, key, a, at_round=3, watcher=1)
        try:
            started = next(m for m in on_b.log if m.type == "started")
            a.signal(signal.SIGSTOP)
            try:
                end_b, _ = await on_b.wait_for(lambda m: m.type in ("aborted", "finished"), 15)
            finally:
                a.signal(signal.SIGCONT)
            end_a, _ = await on_a.wait_for(lambda m: m.type in ("aborted", "finished"), 10)
            # A new draw through B right away: it must run alone.
            resp = await asyncio.to_thread(http.start_draw, b, room, key)
            assert resp.status == 202, resp.body
            await on_b.wait_for(lambda m: m.type == "finished", 20)
            await on_a.wait_for(lambda m: m.type == "finished", 10)
            await asyncio.to_thread(wait_until, lambda: http.metric(a, "livedraw_cluster_fenced_out_total") >= 1, 10,
                                    "the woken node to have been refused")
            await on_a.barrier()
            await on_b.barrier()
            return started, end_a, end_b, list(on_a.log), list(on_b.log)
        finally:
            await close_all([on_a, on_b])

    started, end_a, end_b, log_a, log_b = run(scenario(), timeout=90)
    old = started["drawId"]
    assert end_b.type == "aborted" and end_b["reason"] == "interrupted", end_b.raw
    assert end_b["drawId"] == old
    draw.assert_seed_matches(end_b["seed"], started["commitment"])
    assert end_a.raw == end_b.raw, "the woken node's viewer saw another end than the other node's"
    for name, log in (("A", log_a), ("B", log_b)):
        events = [m for m in log if m.type in DRAW_TYPES]
        old_events = [m for m in events if m.get("drawId") == old]
        # One end of the old draw, and nothing of it after that end (nor inside the new draw).
        ends = [m for m in old_events if m.type in ("aborted", "finished", "failed")]
        assert len(ends) == 1, f"{name}'s viewer saw {len(ends)} ends of the old draw"
        assert old_events[-1] is ends[0], f"{name}'s viewer saw the old draw after its end"
        rounds = [m["round"] for m in old_events if m.type == "round"]
        assert rounds == list(range(1, end_b["roundsShown"] + 1)), f"{name}'s viewer saw rounds {rounds}"
        # The new draw ran alone, from its start to its end.
        new = [m for m in events[events.index(ends[0]) + 1:]]
        assert [m.type for m in new][0] in ("loading", "started") and new[-1].type == "finished", [m.type for m in new]
        assert len({m.get("drawId") for m in new if m.get("drawId")}) == 1
    print(f"woken node refused {http.metric(a, 'livedraw_cluster_fenced_out_total'):.0f} time(s)")
