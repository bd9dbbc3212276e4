"""Connection life: server restarts, unknown rooms, joining in the middle of a draw."""
import signal

import pytest
from selenium.common.exceptions import TimeoutException

from helpers.http import api, created_room

# Counts WebSocket constructions, to prove the page stops retrying where it should.
COUNT_SOCKETS = """
const Native = window.WebSocket;
window.__sockets = 0;
window.WebSocket = class extends Native { constructor(...a) { super(...a); window.__sockets++; } };
"""


@pytest.mark.parametrize("sig, first_banner", [(signal.SIGKILL, "lost"), (signal.SIGTERM, "restart")])
def test_page_recovers_by_itself_after_a_server_restart(server_factory, open_page, sig, first_banner):
    srv = server_factory()
    room = "lobby"
    page = open_page(room, server=srv)
    status, _ = api(srv, "POST", f"/api/rooms/{room}/draws", key=srv.lobby_key)
    assert status == 202
    page.wait_phase("result")
    page.record()

    srv.stop(sig=sig)  # SIGKILL drops the socket (1006); SIGTERM is a shutdown, closing with 1001
    page.wait(lambda d: page.visible("banner"), "the reconnecting banner")
    # The first reason shown tells how the link ended; later retries say "unreachable".
    assert page.recorded()["banners"][:2] == ["", first_banner]
    srv.restart()

    page.wait(lambda d: page.connected(), "the page to reconnect", timeout=20)
    # The new process reads the room's last result from the history (same data dir): the page
    # goes on showing the very draw it showed, nothing newer and nothing stale.
    assert page.phase() == "result"
    assert page.text("draw-id") == api(srv, "GET", f"/api/rooms/{room}")[1]["lastResult"]["drawId"]
    assert page.text("viewer-count") == "1 watching"


def test_shutdown_mid_draw_shows_the_draw_was_stopped(server_factory, open_page):
    # No drain: SIGTERM aborts at once (with the default grace the draw would finish first).
    srv = server_factory(round_interval_ms=600, shutdown_grace_ms=0)
    page = open_page(server=srv)
    api(srv, "POST", "/api/rooms/lobby/draws", key=srv.lobby_key)
    page.wait(lambda d: page.text("round-counter") == "Flip 2 of 10", "round 2")
    srv.stop(sig=signal.SIGTERM)
    page.wait_phase("aborted")
    assert "stopped after" in page.text("aborted")
    srv.restart()
    page.wait(lambda d: page.connected(), "the page to reconnect", timeout=20)
    assert page.phase() == "aborted"  # the snapshot cannot tell; the page keeps what it saw


def test_unknown_room_says_so_and_does_not_retry(server, open_page):
    page = open_page()  # any page on the server, to install the counter before the next load
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_SOCKETS})
    page.driver.get(f"{server.base_url}/?room=no-such-room")
    page.wait_phase("unknown-room")
    assert "no-such-room" in page.text("unknown-room")
    assert not page.visible("banner")
    with pytest.raises(TimeoutException):  # the first retry would come within 250 ms
        page.wait(lambda d: d.execute_script("return window.__sockets") > 1, "a retry", timeout=2)

    # The page offers to create a room instead, with both links to hand out; it does not focus
    # the name field by itself (that would open a phone's keyboard), the button does.
    assert page.driver.switch_to.active_element != page.el("room-input")
    page.driver.find_element("css selector", "#offer-create").click()
    assert page.driver.switch_to.active_element == page.el("room-input")
    page.el("room-input").send_keys("team-a")
    page.el("create-button").click()
    page.wait(lambda d: page.visible("room-links"), "the new room's links")
    assert page.el("viewer-link").get_attribute("value") == f"{server.base_url}/?room=team-a"
    host_link = page.el("host-link").get_attribute("value")
    assert host_link.startswith(f"{server.base_url}/?room=team-a#key=")
    page.driver.find_element("css selector", '[data-copy="host-link"]').click()
    page.wait(lambda d: page.text("link-copied") != "", "the copy feedback")  # copied, or selected

    page.driver.get(host_link)
    page.wait(lambda d: page.connected(), "the new room's page")
    assert page.text("room-name") == "team-a"
    assert page.visible("start-button")


def test_a_viewer_joining_mid_draw_continues_from_the_snapshot(server_factory, open_page):
    srv = server_factory(round_interval_ms=400)
    host = open_page(key=srv.lobby_key, server=srv)
    # Chromium takes seconds to start, longer than a draw lasts on a busy machine: it waits in
    # another room, and only navigating to the lobby happens mid-draw.
    late = open_page(created_room(srv)["room"], server=srv)
    host.el("start-button").click()
    host.wait(lambda d: host.text("round-counter") == "Flip 3 of 10", "round 3")

    late.open("lobby")
    assert late.phase() == "live"
    # One reading of each page, the late one first: a round may arrive between two readings.
    seen = late.round_history()
    assert len(seen) >= 3
    assert seen == host.round_history()[:len(seen)]
    for page in (host, late):
        page.wait_phase("result")
    assert late.round_history() == host.round_history()
    assert late.text("winner-name") == host.text("winner-name")
