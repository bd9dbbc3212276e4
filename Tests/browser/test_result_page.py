"""The shareable result page (issue 16): `/?draw=ID` shows one recorded draw, where, when and
among how many, with its verify panel, and no live connection."""
from helpers.datasource import LOTTERY
from helpers.http import api, created_room

from .browser_harness.lists import ONLY_VOID, lottery
from .browser_harness.pages import DESKTOP, PHONE
from .browser_harness.paths import ARTIFACTS


def open_result(open_page, server, draw_id, size=DESKTOP):
    page = open_page(size=size)
    page.driver.get(f"{server.base_url}/?draw={draw_id}")
    page.wait(lambda d: page.phase() not in ("idle",) or "no recorded draw" in page.text("draw-summary"),
              "the recorded draw")
    return page


def test_a_finished_draw_has_a_result_page_that_verifies(server, open_page):
    room = created_room(server)
    watcher = open_page(room["room"])
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    watcher.wait_phase("result")
    draw_id, winner = watcher.text("draw-id"), watcher.text("winner-name")
    watcher.wait(lambda d: len(watcher.recent_draws()) == 1, "the draw in the recent list")
    assert watcher.driver.execute_script(
        "return document.querySelector('[data-testid=\"recent-list\"] a').getAttribute('href')") == f"/?draw={draw_id}"

    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = open_result(open_page, server, draw_id, size)
        assert page.phase() == "result"
        page.wait(lambda d, page=page: page.text("winner-name") == winner, "the winner (after its pop)")
        assert page.text("room-name") == room["room"]
        summary = page.text("draw-summary")
        assert "4 entrants" in summary and "10 flips" in summary and f"Watch room “{room['room']}” live" in summary
        assert page.verify_status() == "ok"
        assert page.text("verify-draw-id") == f"Draw {draw_id}"
        assert not page.visible("viewer-count") and not page.visible("share")
        assert page.driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        page.driver.save_screenshot(str(ARTIFACTS / "screenshots" / f"result-page-{name}.png"))


def test_void_and_unknown_draws(server, source, open_page):
    source.set_json(LOTTERY, lottery(ONLY_VOID))
    room = created_room(server)
    watcher = open_page(room["room"])
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    watcher.wait_phase("result")
    page = open_result(open_page, server, watcher.text("draw-id"))
    assert page.text("outcome").lower() == "no winner this time"
    page.wait(lambda d: page.text("winner-name") == "Mohsen", "the drawn entry")

    missing = open_result(open_page, server, "0" * 32)
    assert missing.text("draw-summary") == "There is no recorded draw with this link."
