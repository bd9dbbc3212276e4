"""What a viewer joining between draws reads of the room's last draw (issue 28, item 5): after a
restart, "Last result" and "Recent draws" name all three winners of a three-winner draw; after a
crash in the middle of a draw, the card says that draw was stopped, not who won the one before."""
import time

import pytest

from helpers.http import api, created_room
from helpers.rooms import put_entrants, put_settings, room_snapshot, run_draw

from .browser_harness import axe
from .browser_harness.pages import DESKTOP
from .browser_harness.paths import ARTIFACTS

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots"
NAMES = [f"Person {i}" for i in range(1, 31)]


def _room(srv, name, **settings):
    room = created_room(srv, name)
    assert put_entrants(srv, name, room["hostKey"], "\n".join(NAMES)).status == 200
    assert put_settings(srv, name, room["hostKey"], {"rounds": 3, "intervalMs": 50, **settings}).status == 200
    return room["hostKey"]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_winner_is_named_after_a_restart(server_factory, open_page, size):
    srv = server_factory()
    key = _room(srv, "three", winners=3)
    record = run_draw(srv, "three", key)
    winners = [p["name"] for p in record["winnerPicks"]]
    srv.stop()
    srv.restart()  # the room comes back from the store: its last result is rebuilt from the record

    page = open_page("three", size=size, server=srv)
    page.wait(lambda d: page.visible("last-result"), "the last result")
    expected = f"{winners[0]}, {winners[1]} and {winners[2]} won · "
    assert page.text("last-line").startswith(expected), page.text("last-line")
    page.wait(lambda d: page.recent_draws() == [(record["drawId"], "finished", True)], "the recent draw")
    assert page.items("recent-list")[0].count(" won") == 1 and all(w in page.items("recent-list")[0] for w in winners)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_draw_stopped_by_a_crash_is_the_last_draw_viewers_see(server_factory, open_page, size):
    srv = server_factory()
    key = _room(srv, "crash")
    before = run_draw(srv, "crash", key)
    put_settings(srv, "crash", key, {"rounds": 10, "intervalMs": 1000})
    status, started = api(srv, "POST", "/api/rooms/crash/draws", key=key)
    assert status == 202, started
    deadline = time.monotonic() + 15
    while not (running := room_snapshot(srv, "crash")["draw"] or {}).get("rounds"):
        assert time.monotonic() < deadline, "no round shown"
        time.sleep(0.05)
    srv.kill()
    srv.restart()  # the crashed draw is found `interrupted` at this start

    page = open_page("crash", size=size, server=srv)
    page.wait(lambda d: page.visible("last-result") and "stopped" in page.text("last-line"), "the stopped draw")
    line = page.text("last-line")
    assert line.startswith("The last draw was stopped before its end · "), line
    assert "the server stopped unexpectedly" in line and "nothing was decided" in line
    assert before["winner"]["name"] not in line  # not the draw before it
    assert page.text("last-result").startswith("Last draw in this room")
    assert not page.visible("verify-last")
    assert page.el("last-page").get_attribute("href").endswith(f"/?draw={running['drawId']}")
    assert page.phase() == "idle"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(SHOTS / f"last-draw-stopped-{size[0]}.png"))
    assert axe.audit(page, f"last draw stopped ({size[0]})") == []
