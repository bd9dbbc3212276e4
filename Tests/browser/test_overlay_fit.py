"""The overlay's names fit a 1920×1080 frame (issue 28, item 4): a 93-character name stays inside
it on at most two lines, "Sophia Ødegaard" is never broken inside a word, and confetti falls."""
from helpers.http import created_room
from helpers.rooms import put_entrants

from .browser_harness.pages import DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS

FRAME = (1920, 1080)
LONG = "Alexandria Konstantinopoulou-Vanderbilt Montgomery Featherstonehaugh Wolfeschlegelsteinhausen"

MEASURE = """const el = document.querySelector(arguments[0]); const r = el.getBoundingClientRect();
  const lh = parseFloat(getComputedStyle(el).lineHeight);
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, lines: Math.round(r.height / lh),
          width: document.documentElement.clientWidth, height: document.documentElement.clientHeight,
          text: el.textContent, breaks: (() => { const range = document.createRange(); range.selectNodeContents(el);
            return [...range.getClientRects()].length; })()}"""


def draw_in_overlay(server, names):
    room = created_room(server)
    assert put_entrants(server, room["room"], room["hostKey"], "\n".join(names)).status == 200
    page = DrawPage(new_driver(FRAME), server.base_url)
    page.driver.get(f"{server.base_url}/?room={room['room']}&view=overlay")
    page.wait(lambda d: page.driver.execute_script("return document.body.dataset.connection") == "open", "the overlay")
    return room, page


def test_a_93_character_name_stays_inside_the_frame(server):
    assert len(LONG) == 93
    room, page = draw_in_overlay(server, [LONG])
    try:
        from helpers.http import api
        api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
        page.wait(lambda d: page.phase() == "result", "the result")
        page.wait(lambda d: page.driver.execute_script(
            "return document.querySelector('.winner-name').dataset.fitted") == LONG, "the name fitted")
        m = page.driver.execute_script(MEASURE, ".winner-name")
        assert m["text"] == LONG
        assert 0 <= m["left"] and m["right"] <= m["width"] and 0 <= m["top"] and m["bottom"] <= m["height"], m
        assert m["lines"] <= 2, m
        assert page.driver.execute_script("return getComputedStyle(document.querySelector('.confetti')).display") != "none"
        page.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "overlay-long-name-1920.png"))
    finally:
        page.driver.quit()


def test_a_short_name_is_never_broken_inside_a_word(server):
    room, page = draw_in_overlay(server, ["Sophia Ødegaard"])
    try:
        from helpers.http import api
        api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
        page.wait(lambda d: page.phase() == "result", "the result")
        page.wait(lambda d: page.driver.execute_script(
            "return document.querySelector('.winner-name').dataset.fitted") == "Sophia Ødegaard", "the name fitted")
        m = page.driver.execute_script(MEASURE, ".winner-name")
        assert m["lines"] == 1, m  # one line at 1920 px: the words are whole
        assert m["right"] <= m["width"]
    finally:
        page.driver.quit()


def test_the_host_finds_the_overlay_in_add_to_your_stream(server, open_page):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"])
    viewer = open_page(room["room"])
    host.wait(lambda d: host.visible("stream"), "the stream panel")
    url = f"{server.base_url}/?room={room['room']}&view=overlay"
    assert host.el("stream-link").get_attribute("value") == url  # the viewer view: no key in it
    assert host.el("stream-preview").get_attribute("href") == url
    assert "1920 × 1080" in host.text("stream")
    host.el("stream-copy").click()
    host.wait(lambda d: host.text("stream") and host.driver.find_element("id", "stream-copied").text != "", "copied")
    assert not viewer.visible("stream")
