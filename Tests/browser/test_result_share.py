"""The result page a host posts afterwards (issue 28, item 8): named after the giveaway (its
headline and the tab's title), with its prize and every winner, a button that copies the result with its link,
and no "Sound off" button (the page plays nothing)."""
import pytest

from helpers.http import created_room
from helpers.rooms import put_entrants, put_settings, run_draw

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_result_page_is_titled_and_copies_the_result(server, size):
    room = created_room(server)
    name, key = room["room"], room["hostKey"]
    assert put_entrants(server, name, key, "\n".join(f"Guest {i}" for i in range(1, 21))).status == 200
    assert put_settings(server, name, key, {"winners": 3, "rounds": 3, "intervalMs": 50, "countdownMs": 0,
                                            "title": "Spring Giveaway", "prize": "A signed book"}).status == 200
    record = run_draw(server, name, key)
    winners = [p["name"] for p in record["winnerPicks"]]

    driver = new_driver(size)
    try:
        driver.get(f"{server.base_url}/?draw={record['drawId']}")
        page = DrawPage(driver, server.base_url)  # the result page has no connection to wait for
        q = page.el
        page.wait(lambda d: q("giveaway-title").text == "Spring Giveaway", "the giveaway's title")
        page.wait(lambda d: driver.title.startswith("Spring Giveaway · "), "the tab named after the giveaway")
        assert driver.find_element("css selector", "h1").text.lower() == "draw result"
        assert q("giveaway-prize").text == "Prize: A signed book"
        assert all(w in q("winner-list").text for w in winners)
        assert not q("sound-toggle").is_displayed()

        # The clipboard is stood in for: what the button hands it is the check.
        driver.execute_script("""window.__copied = [];
            Object.defineProperty(navigator, 'clipboard', {value: {writeText: async (t) => { window.__copied.push(t); }}});""")
        q("result-share-button").click()
        page.wait(lambda d: q("result-share-done").text.startswith("Copied"), "the copy")
        text = driver.execute_script("return window.__copied[0]")
        lines = text.split("\n")
        assert lines[0] == "Spring Giveaway" and lines[1] == "Prize: A signed book"
        assert all(w in lines[2] for w in winners) and lines[2].endswith(" won.")
        assert lines[3] == f"Check the draw: {server.base_url}/?draw={record['drawId']}"
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"result-page-{size[0]}.png"))
        assert axe.audit(page, f"result page titled ({size[0]})") == []
    finally:
        driver.quit()
