"""A room's own list and several winners as the page shows them (issue 15; the page's list view
and upload form are another change's): the host sees the list's size and, when no entry can
win, says so before the start; a three-winner draw lists its three winners on every page."""
import json

from helpers import http
from helpers.http import created_room


def _put(server, room, key, path, body, content_type):
    resp = http.request(server, "PUT", f"/api/rooms/{room}/{path}", body=body,
                        headers={"Content-Type": content_type, "Authorization": f"Bearer {key}"})
    assert resp.status == 200, resp.body


def test_the_host_sees_the_count_and_an_all_void_list(server, open_page):
    room = created_room(server)
    users = [{"userId": 1, "name": "Ann", "username": "ann", "regDate": "2020-01-02"}]
    _put(server, room["room"], room["hostKey"], "entrants",
         json.dumps({"users": users, "usersInLottery": [{"userId": 1, "void": True}]}), "application/json")
    host = open_page(room["room"], room["hostKey"])
    host.wait(lambda d: host.visible("all-void"), "the all-void warning")
    assert host.text("all-void") == "Every entry is void: this draw cannot have a winner."
    assert host.text("entrant-count") == "1 entrant in this room's list."
    viewer = open_page(room["room"])
    assert not viewer.visible("all-void")


def test_three_winners_are_listed_on_every_page(server, open_page):
    room = created_room(server)
    names = [f"Person {i}" for i in range(1, 13)]
    _put(server, room["room"], room["hostKey"], "entrants", "\n".join(names), "text/plain")
    _put(server, room["room"], room["hostKey"], "settings", json.dumps({"winners": 3}), "application/json")
    host = open_page(room["room"], room["hostKey"])
    viewer = open_page(room["room"])
    host.wait(lambda d: host.text("entrant-count") == "12 entrants in this room's list.", "the count")
    host.el("start-button").click()
    shown = []
    for page in (host, viewer):
        page.wait_phase("result")
        page.wait(lambda d, page=page: page.visible("winner-list"), "the winner list")
        shown.append([li.text for li in page.el("winner-list").find_elements("css selector", "li")])
    assert shown[0] == shown[1] and len(shown[0]) == 3 and len(set(shown[0])) == 3, shown
    status, snap = http.api(server, "GET", f"/api/rooms/{room['room']}")
    assert status == 200
    picks = snap["lastResult"]["winnerPicks"]
    assert [s.split(" @")[0] for s in shown[0]] == [p["name"] for p in picks]
    assert host.text("outcome").lower() == "the 3 winners are"  # shown in capitals by the stylesheet


def test_an_open_page_shows_a_new_list_without_reconnecting(server, open_page):
    room = created_room(server)
    _put(server, room["room"], room["hostKey"], "entrants", "Ann\nBob", "text/plain")
    host = open_page(room["room"], room["hostKey"])
    host.wait(lambda d: host.text("entrant-count") == "2 entrants in this room's list.", "the first count")
    # The host replaces the list (from anywhere: curl here): the `room` message updates the page.
    _put(server, room["room"], room["hostKey"], "entrants", "Ann\nBob\nCy\nDee\nEve", "text/plain")
    host.wait(lambda d: host.text("entrant-count") == "5 entrants in this room's list.", "the new count")
