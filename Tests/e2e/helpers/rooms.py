"""A host's changes to a room between draws (issue 15): its own entrant list and its settings,
over the HTTP API as curl or the page would send them, and a draw run to its record.
"""
import json
import time

from . import http


def put_entrants(server, room: str, key, body, content_type: str = "text/plain") -> http.Response:
    """PUT /api/rooms/ROOM/entrants; `body` is text (one name per line), bytes, or a JSON-able
    object sent as application/json."""
    if not isinstance(body, (str, bytes)):
        body, content_type = json.dumps(body), "application/json"
    headers = {"Content-Type": content_type}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    return http.request(server, "PUT", f"/api/rooms/{room}/entrants", body=body, headers=headers, timeout=30)


def delete_entrants(server, room: str, key) -> http.Response:
    return http.request(server, "DELETE", f"/api/rooms/{room}/entrants", headers={"Authorization": f"Bearer {key}"})


def put_settings(server, room: str, key, settings: dict) -> http.Response:
    return http.request(server, "PUT", f"/api/rooms/{room}/settings", body=settings,
                        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})


def room_snapshot(server, room: str) -> dict:
    status, body = http.api(server, "GET", f"/api/rooms/{room}")
    assert status == 200, body
    return body


def wait_idle(server, room: str, timeout: float = 20.0) -> dict:
    """The room's snapshot once no draw is loading or running."""
    deadline = time.monotonic() + timeout
    while True:
        snap = room_snapshot(server, room)
        if snap["draw"] is None:
            return snap
        assert time.monotonic() < deadline, f"room {room} still drawing: {snap['draw']}"
        time.sleep(0.02)


def run_draw(server, room: str, key) -> dict:
    """Starts a draw in `room` and returns its record (GET /api/draws/ID) once it ended."""
    last = newest_draw(server, room)
    resp = http.start_draw(server, room, key)
    assert resp.status == 202, resp.body
    deadline = time.monotonic() + 30
    while True:
        newest = newest_draw(server, room, summary=True)
        if newest and newest["drawId"] != last and newest["status"] != "running":
            status, record = http.api(server, "GET", f"/api/draws/{newest['drawId']}")
            assert status == 200, record
            return record
        assert time.monotonic() < deadline, f"no draw ended in {room}: {newest}"
        time.sleep(0.02)


def newest_draw(server, room: str, summary: bool = False):
    """The id (or with `summary` the summary) of the room's newest draw, None without any."""
    status, page = http.api(server, "GET", f"/api/rooms/{room}/draws?limit=1")
    assert status == 200, page
    newest = page["draws"][0] if page["draws"] else None
    return newest if summary or newest is None else newest["drawId"]
