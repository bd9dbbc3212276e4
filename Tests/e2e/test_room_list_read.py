"""A room's host reads its own list back (issue 28, item 3): `GET /api/rooms/ROOM/entrants` with
the host key, as kept (in list order, with its warnings), also after a restart (read from the
store); `null` for a room without a list of its own; never without the key.

Real processes, real SQLite files; docs/PROTOCOL.md section 5.6.
"""
import signal

from helpers import http
from helpers.rooms import delete_entrants, put_entrants, put_settings


def _get(server, room, key=None):
    return http.api(server, "GET", f"/api/rooms/{room}/entrants", key=key)


def test_the_host_reads_the_list_as_kept(server):
    key = http.created_room(server, "reread")["hostKey"]
    assert _get(server, "reread", key) == (200, {"room": "reread", "entrants": None, "warnings": []})
    assert put_entrants(server, "reread", key, "Name\nAnn\n  Bob  \nAnn\n").status == 200
    status, body = _get(server, "reread", key)
    assert status == 200
    assert [(p["userId"], p["name"], p["username"], p["void"]) for p in body["entrants"]] == [
        (1, "Name", "", False), (2, "Ann", "", False), (3, "Bob", "", False), (4, "Ann", "", False)]
    assert [(w["code"], w["userId"]) for w in body["warnings"]] == [("duplicate_name", 4)]
    assert delete_entrants(server, "reread", key).status == 204
    assert _get(server, "reread", key)[1]["entrants"] is None


def test_only_with_the_rooms_key(server):
    key = http.created_room(server, "keyed-list")["hostKey"]
    put_entrants(server, "keyed-list", key, "Ann\n")
    assert _get(server, "keyed-list")[0] == 401
    assert _get(server, "keyed-list", "0" * 48)[0] == 403
    assert _get(server, "no-such-room", key)[0] == 404
    assert _get(server, "lobby", server.lobby_key)[0] == 403  # the lobby has no list of its own


def test_a_restart_reads_it_from_the_store(launch):
    srv = launch()
    key = http.created_room(srv, "kept-list")["hostKey"]
    put_entrants(srv, "kept-list", key, "Zoë\nÅsa\n")
    put_settings(srv, "kept-list", key, {"title": "Spring Giveaway"})
    srv.stop(sig=signal.SIGKILL)
    srv.restart()
    status, body = _get(srv, "kept-list", key)
    assert status == 200 and [p["name"] for p in body["entrants"]] == ["Zoë", "Åsa"]
    assert http.api(srv, "GET", "/api/rooms/kept-list")[1]["settings"]["title"] == "Spring Giveaway"
