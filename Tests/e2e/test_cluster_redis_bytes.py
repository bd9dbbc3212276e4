"""What Redis holds per room, per draw and per list in cluster mode (issue 44, docs/SCALING.md
"Sizing Redis"): a finished draw of a 5,000-name list costs Redis a few kilobytes whatever the
list's size (its record references the list, kept once), within the 8 KB the issue sets for 3
winners and 10 rounds. Prints the table SCALING.md quotes:

    LIVE_DRAW_BIN=.build/debug/live-draw python3 -m pytest Tests/e2e/test_cluster_redis_bytes.py -q -s

Bytes are `MEMORY USAGE <key> SAMPLES 0` (the whole value, Redis' own overhead included) on a
real redis-server; per-room keys shared by the draws (history, lines, ends) are divided by them.
"""
from helpers import http
from helpers.redis import launch_node
from helpers.rooms import put_entrants, put_settings, run_draw

P = "live-draw:"
DRAWS = 6


def _usage(redis, key: str) -> int:
    reply = redis.command("MEMORY", "USAGE", key, "SAMPLES", "0")
    return int(reply[1:]) if reply.startswith(":") else 0


def test_a_finished_draw_costs_redis_kilobytes_whatever_its_lists_size(launch, redis):
    node = launch_node(launch, redis, round_interval_ms=20)
    key = http.created_room(node, "sized")["hostKey"]
    plain_key = http.created_room(node, "plain")["hostKey"]
    assert plain_key
    names = "\n".join(f"Entrant number {n:05d}" for n in range(1, 5001))
    assert put_entrants(node, "sized", key, names).status == 200
    assert put_settings(node, "sized", key, {"winners": 3, "rounds": 10}).status == 200
    shared = lambda: sum(_usage(redis, f"{P}{k}:sized") for k in ("history", "history-lines", "history-ends")) \
        + _usage(redis, f"{P}ends")
    records = [run_draw(node, "sized", key)]
    first = shared()
    records += [run_draw(node, "sized", key) for _ in range(DRAWS - 1)]
    assert all(r["status"] == "finished" and len(r["entrants"]) == 5000 for r in records)
    list_hash = records[0]["entrantsHash"]

    per_draw = [sum(_usage(redis, f"{P}{k}:{r['drawId']}") for k in ("draw", "entrants", "draw-end")) for r in records]
    # What each further draw adds to the keys the room's draws share (their first draw's fixed
    # part is the room's, below).
    each_shared = (shared() - first) / (DRAWS - 1)
    finished = max(per_draw) + each_shared
    list_bytes = _usage(redis, f"{P}entrant-list:{list_hash}")
    room = _usage(redis, f"{P}room:plain")
    own_list = _usage(redis, f"{P}room:sized:entrants")
    view = sum(_usage(redis, f"{P}{k}:sized") for k in ("view", "view-rounds", "escrow", "fence"))
    print(f"\nRedis bytes (MEMORY USAGE), 5,000-name list, 3 winners, 10 rounds, {DRAWS} draws:")
    print(f"  per finished draw in the window: {finished:,.0f} (record, entrants' reference and end claim "
          f"{max(per_draw):,}; what it adds to the room's history, ends and the ends stream {each_shared:,.0f})")
    print(f"  per distinct list: {list_bytes:,} (once, for every draw of it)")
    print(f"  per room: {room:,} (its record), plus its own list if it has one: {own_list:,}")
    print(f"  per room that has drawn: {view + first:,} (its view, the last draw's rounds, escrow, fence: {view:,}; "
          f"its history keys and the ends stream with one draw: {first:,})")
    assert list_bytes > 100_000, "the list is kept once, whole"
    assert finished <= 8 * 1024, f"a finished draw costs Redis {finished:,.0f} bytes"

