"""The shared history's retention window and every node's archive (issue 44): Redis lets an ended
draw go after `--redis-history-seconds`, and the draw still reads, lists and verifies on every
node that was up while Redis held it, including one that never ran it and one started after it
ended (it catches up from Redis). A node started after the window cannot serve it (SCALING.md,
"Retention"): it says 404, never a wrong record.

Real nodes on one real redis-server over loopback; waits are on what Redis and the API say.
"""
from helpers import http
from helpers import draw
from helpers.redis import launch_node, wait_until
from helpers.rooms import put_entrants, put_settings, run_draw

WINDOW_S = 4
ARCHIVED = "livedraw_cluster_archived_draws_total"


def _gone_from_redis(redis, draw_id: str) -> bool:
    return redis.command("EXISTS", f"live-draw:draw:{draw_id}") == ":0"


def test_a_draw_older_than_the_window_reads_and_verifies_on_nodes_that_never_ran_it(launch, redis):
    opts = dict(round_interval_ms=50, redis_history_seconds=WINDOW_S)
    a, b = launch_node(launch, redis, **opts), launch_node(launch, redis, **opts)
    key = http.created_room(a, "kept")["hostKey"]
    names = "\n".join(f"Entrant {n}" for n in range(1, 41))
    assert put_entrants(a, "kept", key, names).status == 200
    assert put_settings(a, "kept", key, {"rounds": 3, "winners": 2}).status == 200
    record = run_draw(a, "kept", key)
    draw_id = record["drawId"]
    assert record["status"] == "finished", record
    # Started after the draw ended, while Redis still holds it: it catches up.
    c = launch_node(launch, redis, **opts)
    _, entrants = http.api(a, "GET", f"/api/draws/{draw_id}/entrants")

    # Every node copies the end while Redis holds it (its archiver reads every 2 s; /metrics
    # counts what it copied), then Redis lets the draw go.
    for node in (a, b, c):
        wait_until(lambda: http.metric(node, ARCHIVED) >= 1, WINDOW_S, f"node {node.port} archiving the draw")
    wait_until(lambda: _gone_from_redis(redis, draw_id), WINDOW_S + 10, "Redis letting the draw go")
    assert redis.command("EXISTS", f"live-draw:entrants:{draw_id}") == ":0"
    for node in (a, b, c):
        status, kept = http.api(node, "GET", f"/api/draws/{draw_id}")
        assert status == 200, (node.port, kept)
        assert kept == record, node.port
        report = draw.verify_draw.verify_document(kept)
        assert report["ok"] and report["roundsChecked"] >= 3, report
        status, listed = http.api(node, "GET", f"/api/draws/{draw_id}/entrants")
        assert status == 200 and listed == entrants, node.port
        status, page = http.api(node, "GET", "/api/rooms/kept/draws")
        assert status == 200 and [d["drawId"] for d in page["draws"]] == [draw_id], (node.port, page)

    # Started after the window: nothing in Redis to catch up from, nothing wrong served.
    d = launch_node(launch, redis, **opts)
    status, body = http.api(d, "GET", f"/api/draws/{draw_id}")
    assert status == 404 and body["error"]["code"] == "unknown_draw", body


def test_a_rooms_history_pages_across_redis_and_the_archive_in_one_order(launch, redis):
    """Five draws, the first three let go by Redis (the room's cap of 2 lines, and the window):
    pages of two come newest first with no draw twice or missing, the older ones from the
    archive."""
    opts = dict(round_interval_ms=50, redis_history_seconds=WINDOW_S, redis_history_per_room=2)
    a, b = launch_node(launch, redis, **opts), launch_node(launch, redis, **opts)
    key = http.created_room(a, "paged")["hostKey"]
    assert put_settings(a, "paged", key, {"rounds": 2}).status == 200
    ids = [run_draw(a if n % 2 else b, "paged", key)["drawId"] for n in range(5)]
    # Redis keeps the room's 2 newest lines; each node archives every end (it reads each 2 s).
    assert redis.command("HLEN", "live-draw:history-lines:paged") == ":2"
    for node in (a, b):
        wait_until(lambda: http.metric(node, ARCHIVED) >= 5, WINDOW_S, f"node {node.port} archiving the draws")
    wait_until(lambda: _gone_from_redis(redis, ids[0]), WINDOW_S + 10, "Redis letting the first draw go")
    for node in (a, b):
        seen, cursor = [], None
        while True:
            path = "/api/rooms/paged/draws?limit=2" + (f"&cursor={cursor}" if cursor else "")
            status, page = http.api(node, "GET", path)
            assert status == 200, page
            seen += [d["drawId"] for d in page["draws"]]
            cursor = page.get("nextCursor")
            if not cursor:
                break
        assert seen == list(reversed(ids)), node.port
