"""A draw as people see it: host and viewers in step, void outcomes, data-source failures."""
from selenium.webdriver.common.keys import Keys

from helpers.datasource import LOTTERY, USERS
from helpers.http import api, created_room

from .browser_harness.lists import ONLY_VOID, WINNERS_ONLY, lottery

ROUNDS = [f"Flip {i} of 10" for i in range(1, 11)]


def shown_result(page):
    return {
        "outcome": page.el("outcome").get_attribute("data-outcome"),
        "headline": page.text("outcome"),
        "winner": page.text("winner-name"),
        "username": page.text("winner-username"),
        "drawId": page.text("draw-id"),
        "rounds": page.round_history(),
    }


def test_host_and_two_viewers_see_the_same_draw(server, open_page):
    host = open_page(key=server.lobby_key)
    viewers = [open_page(), open_page()]
    everyone = [host, *viewers]
    for page in everyone:
        page.record()
        page.wait(lambda d, page=page: page.text("viewer-count") == "3 watching", "3 viewers")
    assert host.visible("start-button")
    assert not any(v.visible("host-panel") for v in viewers)

    host.el("start-button").send_keys(Keys.ENTER)  # the keyboard is enough to host

    for page in everyone:
        page.wait_phase("result")
    results = [shown_result(page) for page in everyone]
    assert results[0] == results[1] == results[2]
    for page in everyone:
        seen = page.recorded()
        assert seen["phases"] == ["idle", "loading", "live", "result"]
        assert [c for c in seen["counters"] if c.startswith("Flip")] == ROUNDS

    status, room = api(server, "GET", "/api/rooms/lobby")
    assert status == 200
    record = room["lastResult"]
    assert results[0]["drawId"] == record["drawId"]
    # The HTTP snapshot (protocol v2) names the picked entries, not the whole list.
    picked = {p["index"]: p for p in record["picked"]}
    assert results[0]["rounds"] == [picked[i]["name"] for i in record["picks"]]
    assert record["outcome"] == "winner"
    assert results[0]["winner"] == record["winner"]["name"]
    assert results[0]["username"] == "@" + record["winner"]["username"]
    assert "winner is" in host.text("announcer")
    assert host.severe_console_errors() == []  # e.g. nothing refused by the Content-Security-Policy


def host_starts_in_new_room(server, open_page):
    """A fresh room with its host and one viewer; the host clicks Start."""
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"])
    viewer = open_page(room["room"])
    host.el("start-button").click()
    return host, viewer


def test_void_outcome_shows_no_winner(server, source, open_page):
    source.set_json(LOTTERY, lottery(ONLY_VOID))
    host, viewer = host_starts_in_new_room(server, open_page)
    for page in (host, viewer):
        page.wait_phase("result")
        assert page.el("outcome").get_attribute("data-outcome") == "void"
        assert page.text("outcome").lower() == "no winner this time"
        # The drawn entry is named, and the page says plainly that it does not win.
        assert page.text("winner-name") == "Mohsen"
        assert page.text("winner-username") == "@AghaMohsen is a void entry, so it does not win."
        assert page.round_history() == ["Mohsen"] * 10
    assert viewer.text("announcer") == "No winner this time: the drawn entry was void."


def test_data_source_failure_is_not_a_connection_problem(server, source, open_page):
    source.set_status(USERS, 503)
    source.set_status(LOTTERY, 503)
    host, viewer = host_starts_in_new_room(server, open_page)
    for page in (host, viewer):
        page.wait_phase("failed")
        assert page.text("failure") == "The player lists could not be loaded: their server answered with an error."
    # The code and the server's own sentence are for the host only.
    assert "source_bad_status" in host.text("failure-detail")
    assert not viewer.visible("failure-detail")
    for page in (host, viewer):
        assert not page.visible("banner")

    source.reset()  # the host may try again once the source is back
    host.el("start-button").click()
    viewer.wait_phase("result")


def test_wrong_host_key_is_refused_visibly(server, open_page):
    host = open_page(key="0" * 48)
    host.el("start-button").click()
    # `forbidden`: the page stops pretending to be the host (more in test_liveness.py).
    host.wait(lambda d: host.visible("host-revoked"), "the refusal of the key")
    assert host.text("role") == "viewer"
    assert host.phase() == "idle"


def test_merge_warnings_are_shown_to_the_host_only(server, source, open_page):
    source.set_json(LOTTERY, lottery([*WINNERS_ONLY, {"userId": 999, "void": False}]))  # 999 is in no user list
    host, viewer = host_starts_in_new_room(server, open_page)
    # Not while the draw runs (a projected host page would tell the room which names cannot win,
    # issue 28): once it has ended.
    host.wait(lambda d: host.phase() == "live", "the draw running")
    assert not host.visible("warnings")
    host.wait(lambda d: host.visible("warnings"), "the merge warning")
    [(code, text)] = host.warnings()
    assert code == "unknown_user"
    assert "999" in text
    viewer.wait_phase("result")
    assert not viewer.visible("host-panel")
