"""Cluster mode (issue 14): a room's draw history is the same on every node.

`GET /api/rooms/ROOM/draws` in cluster mode pages the cluster's shared history in Redis, not the
answering node's own SQLite log, so draws run through node A and through node B are listed alike
by both, page by page, cursors included (docs/SCALING.md, docs/PROTOCOL.md §5.1).
"""
from helpers import http
from helpers.redis import wait_until


def _pages(node, room: str, limit: int):
    """Every page of the room's history through `node`, as raw bodies, following nextCursor."""
    bodies, cursor = [], None
    while True:
        path = f"/api/rooms/{room}/draws?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        resp = http.request(node, "GET", path)
        assert resp.status == 200, (path, resp.status, resp.body)
        bodies.append(resp.body)
        cursor = resp.json["nextCursor"]
        if cursor is None:
            return bodies


def _run_draw(node, watcher, room: str, key: str, count: int) -> str:
    """Starts a draw through `node` and waits until `watcher` lists it as ended; its id."""
    resp = http.start_draw(node, room, key)
    assert resp.status == 202, resp.body

    def ended():
        status, body = http.api(watcher, "GET", f"/api/rooms/{room}/draws")
        draws = body["draws"] if status == 200 else []
        return len(draws) == count and draws[0]["status"] == "finished"
    wait_until(ended, 20, f"draw {count} listed as finished")
    return http.api(watcher, "GET", f"/api/rooms/{room}/draws")[1]["draws"][0]["drawId"]


def test_draws_run_on_either_node_are_listed_alike_by_both(nodes):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]
    # A known room with no draws yet: an empty page on both.
    for node in (a, b):
        status, body = http.api(node, "GET", f"/api/rooms/{room}/draws")
        assert status == 200 and body == {"room": room, "draws": [], "nextCursor": None}, body

    first = _run_draw(a, b, room, key, 1)       # through A, watched on B
    second = _run_draw(b, a, room, key, 2)      # through B, watched on A
    third = _run_draw(a, b, room, key, 3)

    whole_a = http.api(a, "GET", f"/api/rooms/{room}/draws")[1]
    assert [d["drawId"] for d in whole_a["draws"]] == [third, second, first]
    assert all(d["status"] == "finished" and d["roundsShown"] == 10 for d in whole_a["draws"]), whole_a
    assert http.request(b, "GET", f"/api/rooms/{room}/draws").body == http.request(a, "GET", f"/api/rooms/{room}/draws").body
    # Page by page (one draw a page, cursors included), both nodes answer byte for byte alike.
    pages_a, pages_b = _pages(a, room, 1), _pages(b, room, 1)
    assert len(pages_a) == 3 and pages_a == pages_b
    # Every listed draw's record reads the same through both nodes.
    for draw_id in (first, second, third):
        assert http.request(a, "GET", f"/api/draws/{draw_id}").body == http.request(b, "GET", f"/api/draws/{draw_id}").body


def test_a_deleted_rooms_history_and_an_unknown_room_read_alike_on_both_nodes(nodes):
    a, b = nodes
    created = http.created_room(b)
    room, key = created["room"], created["hostKey"]
    draw_id = _run_draw(b, a, room, key, 1)
    assert http.api(a, "DELETE", f"/api/rooms/{room}", key=key)[0] == 204
    # The room is gone, its history stays, listed by the node that did not run the draw too.
    for node in (a, b):
        status, body = http.api(node, "GET", f"/api/rooms/{room}/draws")
        assert status == 200 and [d["drawId"] for d in body["draws"]] == [draw_id], body
        assert http.api(node, "GET", "/api/rooms/never-was/draws")[0] == 404
        assert http.api(node, "GET", f"/api/rooms/{room}/draws?cursor=abc")[0] == 400
