"""Screenshots of idle, live and result at phone (390×844) and desktop widths, light and dark,
for people to look at.

Saved to artifacts/screenshots/ (not committed). With UPDATE_README_SCREENSHOT=1 the finished
desktop view is also copied to docs/screenshots/finished-desktop.png, which the README shows; it is
opt-in so that an ordinary test run never modifies a tracked file.
"""
import os
import shutil

from helpers.datasource import LOTTERY
from helpers.http import api, created_room

from .browser_harness.lists import ONLY_VOID, lottery
from .browser_harness.pages import DESKTOP, emulate_media
from .browser_harness.paths import ARTIFACTS, REPO

SHOTS = ARTIFACTS / "screenshots"
PHONE = (390, 844)
README_SHOT = REPO / "docs" / "screenshots" / "finished-desktop.png"
SETTLED = "return arguments[0].getAnimations({subtree: true}).every((a) => a.playState !== 'running')"


def settled(page, testid):
    """True once the element's own animations (a flip, the winner's pop) have ended."""
    return page.driver.execute_script(SETTLED, page.el(testid))


def shoot(pages, state, schemes=("light", "dark")):
    for name, page in pages.items():
        for scheme in schemes:
            emulate_media(page.driver, prefers_color_scheme=scheme)
            suffix = "" if scheme == "light" else "-dark"
            path = SHOTS / f"{state}-{name}{suffix}.png"
            assert page.driver.save_screenshot(str(path)), path
            assert path.stat().st_size > 10_000  # a real render, not a blank page
            width = page.driver.execute_script("return innerWidth")
            assert page.driver.execute_script("return document.documentElement.scrollWidth") <= width, \
                f"{state} scrolls sideways at {width} px"
        emulate_media(page.driver, prefers_color_scheme="light")


def test_screenshots_of_idle_live_and_result(server_factory, open_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    srv = server_factory(round_interval_ms=1500)  # slow enough to catch a settled live frame
    room = created_room(srv, "finals")
    status, _ = api(srv, "POST", "/api/rooms/finals/draws", key=room["hostKey"])  # one result to show
    assert status == 202
    pages = {"phone": open_page("finals", size=PHONE, server=srv),
             "desktop": open_page("finals", size=DESKTOP, server=srv)}
    for page in pages.values():
        page.wait(lambda d, page=page: page.visible("last-result") or page.phase() == "result",
                  "the first draw to end", timeout=30)

    api(srv, "POST", "/api/rooms/finals/draws", key=room["hostKey"])
    for page in pages.values():
        page.wait(lambda d, page=page: page.text("round-counter") == "Flip 3 of 10", "round 3")
        page.wait(lambda d, page=page: settled(page, "current-name"), "the flip to settle")
    for page in pages.values():
        assert page.phase() == "live"
    shoot(pages, "live")

    for page in pages.values():
        page.wait_phase("result", timeout=30)
        page.wait(lambda d, page=page: settled(page, "winner-name"), "the winner to appear")
        page.verify_status()
    shoot(pages, "result")
    if os.environ.get("UPDATE_README_SCREENSHOT") == "1":
        README_SHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHOTS / "result-desktop.png", README_SHOT)

    for page in pages.values():  # a newcomer's first view: idle, with the room's last result
        page.driver.refresh()
        page.wait(lambda d, page=page: page.connected() and page.visible("last-result"), "the idle page")
    shoot(pages, "idle")

    host = open_page("finals", room["hostKey"], size=DESKTOP, server=srv)
    shoot({"desktop": host}, "host")


def test_screenshots_of_no_winner_and_failure(server, source, open_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    room = created_room(server)
    pages = {"phone": open_page(room["room"], size=PHONE), "desktop": open_page(room["room"], size=DESKTOP)}
    source.set_json(LOTTERY, lottery(ONLY_VOID))
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    for page in pages.values():
        page.wait_phase("result")
        page.verify_status()
        page.driver.execute_script("document.getAnimations().forEach((a) => a.finish())")
        assert page.text("winner-name") == "Mohsen" and "does not win" in page.text("winner-username")
    shoot(pages, "no-winner")

    source.set_json(LOTTERY, lottery([]))
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    for page in pages.values():
        page.wait_phase("failed")
        assert page.text("failure") == "There was nobody to draw: the lottery list is empty."
    shoot(pages, "failed")
