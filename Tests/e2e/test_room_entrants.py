"""Hosts bring their own entrants (issue 15): a room's own list, uploaded by its host as plain
text or as the seed's two JSON lists, kept with the room (a restart keeps it), replaceable only
between draws, within the operator's limits (each one a 4xx naming the limit, nothing half
kept), shown in the room's snapshot before the draw, and drawn from instead of the operator's
lists until the host removes it.

Real processes, real SQLite files; docs/PROTOCOL.md section 5.
"""
import signal

from helpers import http
from helpers.rooms import delete_entrants, put_entrants, put_settings, room_snapshot, run_draw, wait_idle
from helpers.wsclient import WSClient, run


def _room(srv, name):
    return http.created_room(srv, name)["hostKey"]


def _names(record):
    return [p["name"] for p in record["entrants"]]


def test_a_plain_text_list_is_kept_shown_and_drawn_from(server):
    key = _room(server, "plain")
    resp = put_entrants(server, "plain", key, "\ufeffAnn\r\n  Bob  \n\n\tCy\nBob\n")
    assert resp.status == 200, resp.body
    body = resp.json
    assert body["room"] == "plain" and body["entrants"] == 4 and body["allVoid"] is False
    assert [w["code"] for w in body["warnings"]] == ["duplicate_name"], body
    snap = room_snapshot(server, "plain")
    assert snap["entrants"] == 4 and snap["allVoid"] is False
    assert snap["warnings"] == [{"code": "duplicate_name", "count": 1}]
    record = run_draw(server, "plain", key)
    assert record["status"] == "finished", record
    assert _names(record) == ["Ann", "Bob", "Cy", "Bob"]
    assert [p["userId"] for p in record["entrants"]] == [1, 2, 3, 4]
    assert record["sources"] == {"usersUrl": "upload:text/plain", "lotteryUrl": "upload:text/plain"}


def test_the_json_lists_merge_as_the_operators_do_and_all_void_is_shown(server):
    key = _room(server, "json")
    users = [{"userId": 1, "name": "Ann", "username": "ann", "regDate": "2020-01-02"},
             {"userId": 2, "name": "Bob", "username": "bob", "regDate": "2020-01-03"}]
    lottery = [{"userId": 1, "void": True}, {"userId": 2, "void": True}, {"userId": 9, "void": False},
               {"userId": 1, "void": True}]
    resp = put_entrants(server, "json", key, {"users": users, "usersInLottery": lottery})
    assert resp.status == 200, resp.body
    assert resp.json["entrants"] == 2 and resp.json["allVoid"] is True
    assert sorted(w["code"] for w in resp.json["warnings"]) == ["duplicate_entry", "unknown_user"]
    snap = room_snapshot(server, "json")
    assert snap["entrants"] == 2 and snap["allVoid"] is True
    assert {w["code"]: w["count"] for w in snap["warnings"]} == {"unknown_user": 1, "duplicate_entry": 1}
    # Still allowed to start: the draw just has no winner.
    record = run_draw(server, "json", key)
    assert record["status"] == "finished" and record["outcome"] == "void", record


def test_only_the_host_and_only_with_a_list_type(server):
    key = _room(server, "guarded")
    assert put_entrants(server, "guarded", None, "Ann").error_code() == "unauthorized"
    assert put_entrants(server, "guarded", "0" * 48, "Ann").error_code() == "forbidden"
    resp = put_entrants(server, "guarded", key, "Ann", content_type="application/x-www-form-urlencoded")
    assert resp.status == 415 and resp.error_code() == "unsupported_media_type"
    assert put_entrants(server, "no-such-room", key, "Ann").error_code() == "unknown_room"
    # The lobby keeps the operator's lists.
    assert put_entrants(server, "lobby", server.lobby_key, "Ann").error_code() == "forbidden"
    assert room_snapshot(server, "guarded")["entrants"] is None


def test_each_limit_one_past_is_refused_whole(launch):
    srv = launch(max_entrants=3, max_name_chars=5, max_upload_bytes=64)
    key = _room(srv, "limits")
    assert put_entrants(srv, "limits", key, "Ann\nBob\nCy").status == 200
    cases = [
        ("Ann\nBob\nCy\nDee", 422, "too_many_entrants", "3"),
        ("Ann\nBobby6", 422, "name_too_long", "5"),
        ("Ann\n" + "\U0001F468\u200d\U0001F469\u200d\U0001F467" * 2, 422, "name_too_many_bytes", "20"),  # 2 characters, 36 bytes
        ("A" * 4 + "\n" + "B" * 60, 413, "list_too_large", "64"),  # 65 bytes
        (b"Ann\n\xff\xfe", 400, "list_not_utf8", None),
        ("\n  \n", 422, "no_entrants", None),
        ({"users": [], "usersInLottery": "x"}, 422, "list_invalid_data", None),
        ("{", 400, "list_malformed_json", None),
    ]
    for body, status, code, limit in cases:
        ctype = "application/json" if body == "{" else "text/plain"
        resp = put_entrants(srv, "limits", key, body, content_type=ctype)
        assert resp.status == status and resp.error_code() == code, (body, resp.status, resp.body)
        if limit:
            assert limit in resp.json["error"]["message"], resp.json
        # Nothing of it was kept: the list is still the three names.
        assert room_snapshot(srv, "limits")["entrants"] == 3
    # Exactly at each limit is fine.
    assert put_entrants(srv, "limits", key, "Abcde\nB\nC").status == 200
    assert put_entrants(srv, "limits", key, "Abcde\n" + " " * 58).status == 200  # 64 bytes


def test_replaced_between_draws_and_refused_during_one(launch, data_source):
    srv = launch(round_interval_ms=50, countdown_ms=0)
    key = _room(srv, "swap")
    assert put_entrants(srv, "swap", key, "Ann\nBob").status == 200
    first = run_draw(srv, "swap", key)
    assert _names(first) == ["Ann", "Bob"]

    assert put_entrants(srv, "swap", key, "Cy\nDee\nEd").status == 200
    second = run_draw(srv, "swap", key)
    assert _names(second) == ["Cy", "Dee", "Ed"]

    # Mid-draw: held in loading (its list comes from the store at once, so hold with settings of
    # a slow schedule instead).
    assert put_settings(srv, "swap", key, {"intervalMs": 2000, "rounds": 3}).status == 200
    assert http.start_draw(srv, "swap", key).status == 202
    for resp in (put_entrants(srv, "swap", key, "X"), delete_entrants(srv, "swap", key),
                 put_settings(srv, "swap", key, {"winners": 2})):
        assert resp.status == 409 and resp.error_code() == "draw_running", resp.body
    wait_idle(srv, "swap")

    # Removing the list: the room draws from the operator's lists again.
    assert delete_entrants(srv, "swap", key).status == 204
    assert room_snapshot(srv, "swap")["entrants"] is None
    assert put_settings(srv, "swap", key, {}).status == 200
    third = run_draw(srv, "swap", key)
    assert third["sources"]["usersUrl"].startswith("http"), third["sources"]
    assert len(third["entrants"]) > 3


def test_a_restart_keeps_the_list_and_the_settings(launch):
    srv = launch(countdown_ms=0)
    key = _room(srv, "kept")
    assert put_entrants(srv, "kept", key, "Ann\nBob\nCy\nAnn").status == 200
    assert put_settings(srv, "kept", key, {"winners": 2, "rounds": 4}).status == 200
    srv.stop(sig=signal.SIGKILL)
    srv.restart()
    snap = room_snapshot(srv, "kept")
    assert snap["entrants"] == 4 and snap["warnings"] == [{"code": "duplicate_name", "count": 1}]
    assert snap["settings"]["winners"] == 2 and snap["settings"]["rounds"] == 4
    record = run_draw(srv, "kept", key)
    assert _names(record) == ["Ann", "Bob", "Cy", "Ann"] and record["winners"] == 2, record


def test_the_websocket_snapshot_carries_the_list_and_settings(server):
    key = _room(server, "snap")
    assert put_entrants(server, "snap", key, "\n".join(f"n{i}" for i in range(200))).status == 200

    async def scenario():
        c = await WSClient.open(server.ws_url("snap"))
        try:
            return (await c.expect("snapshot")).data
        finally:
            await c.close()

    snap = run(scenario(), timeout=15)
    assert snap["entrants"] == 200 and snap["warnings"] == [] and snap["allVoid"] is False
    assert set(snap["settings"]) == {"rounds", "intervalMs", "decelerateToMs", "winners", "countdownMs", "title", "prize"}


def test_viewers_connected_now_see_a_new_list_and_settings_without_reconnecting(server):
    key = _room(server, "live-change")

    async def scenario():
        viewer = await WSClient.open(server.ws_url("live-change"), name="viewer")
        try:
            snap = await viewer.expect("snapshot")
            assert snap["entrants"] is None
            assert put_entrants(server, "live-change", key, "Ann\nBob\nCy").status == 200
            room, _ = await viewer.wait_for(lambda m: m.type == "room", timeout=5)
            assert room["room"] == "live-change" and room["entrants"] == 3 and room["allVoid"] is False
            assert put_settings(server, "live-change", key, {"winners": 2}).status == 200
            room, _ = await viewer.wait_for(lambda m: m.type == "room", timeout=5)
            assert room["settings"]["winners"] == 2 and room["entrants"] == 3
            assert delete_entrants(server, "live-change", key).status == 204
            room, _ = await viewer.wait_for(lambda m: m.type == "room", timeout=5)
            assert room["entrants"] is None and room["warnings"] == []
        finally:
            await viewer.close()

    run(scenario(), timeout=30)
