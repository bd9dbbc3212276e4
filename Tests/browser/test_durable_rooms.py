"""Restarts nobody notices (issue 13): a room created over the API, its host's page and two
viewers' pages stay open while the server restarts on the same port and data directory; without
anyone reloading, the pages reconnect into the same room with its last result, and the host's
page starts the next draw, which both viewers follow to the end."""
import signal

import pytest

from helpers.http import created_room


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_host_and_viewers_carry_on_in_their_room_after_a_restart(server_factory, open_page, sig):
    srv = server_factory()
    room = created_room(srv, f"kept-{sig.name.lower()}")
    host = open_page(room["room"], room["hostKey"], server=srv)
    viewers = [open_page(room["room"], server=srv), open_page(room["room"], server=srv)]
    everyone = [host, *viewers]
    for page in everyone:
        page.wait(lambda d, page=page: page.text("viewer-count") == "3 watching", "3 viewers")

    host.el("start-button").click()
    for page in everyone:
        page.wait_phase("result")
    first = host.text("draw-id")

    srv.stop(sig=sig)
    for page in everyone:
        page.wait(lambda d, page=page: page.visible("banner"), "the reconnecting banner")
    srv.restart()  # same port, same data dir

    for page in everyone:
        page.wait(lambda d, page=page: page.connected(), "the page to reconnect", timeout=30)
        page.wait(lambda d, page=page: page.text("viewer-count") == "3 watching", "3 viewers again")
        # Same room, and its last result came back from the history.
        assert page.phase() == "result" and page.text("draw-id") == first
    assert host.text("role") == "host" and host.visible("start-button")

    host.el("start-button").click()  # the same page, the same key
    for page in everyone:
        page.wait(lambda d, page=page: page.result_draw_id() not in (None, "", first),
                  "the next draw's result", timeout=30)
    assert len({page.text("draw-id") for page in everyone}) == 1
    assert len({page.text("winner-name") for page in everyone}) == 1
    assert not host.visible("host-revoked")
