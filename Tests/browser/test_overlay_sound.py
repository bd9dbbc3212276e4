"""The overlay's opt-in sound (issue 28, item 4): with `sound=on` in its address the overlay arms
its sound without a click, as a streaming tool's browser source needs (OBS allows audio without
a gesture; Chromium here is told the same with its autoplay flag); without it, nothing is armed.
The host's "Add to your stream" panel offers the address with sound."""
import pytest

from helpers.http import created_room

from .browser_harness.pages import DrawPage, new_driver

FRAME = (1920, 1080)
AUTOPLAY = ("--autoplay-policy=no-user-gesture-required",)


@pytest.mark.parametrize("query, expected", [("&sound=on", "armed"), ("", "off")], ids=["sound-on", "no-sound"])
def test_the_overlay_arms_its_sound_only_when_asked(server, query, expected):
    driver = new_driver(FRAME, extra_args=AUTOPLAY)
    try:
        page = DrawPage(driver, server.base_url)
        driver.get(f"{server.base_url}/?room=lobby&view=overlay{query}")
        page.wait(lambda d: driver.execute_script("return document.body.dataset.sound") == expected,
                  f"the sound {expected} without any click")
        # No gesture happened: the page was only loaded.
        assert driver.execute_script("return navigator.userActivation.hasBeenActive") is False
        # Asked for in the address, not remembered: the next visit without it is silent.
        assert driver.execute_script("return localStorage.getItem('live-draw.sound')") is None
    finally:
        driver.quit()


def test_the_stream_panel_offers_the_address_with_sound(server, open_page):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"], size=(390, 844))
    link = host.el("stream-link")
    assert not link.get_attribute("value").endswith("&sound=on")
    host.el("stream-sound").click()
    host.wait(lambda d: link.get_attribute("value").endswith("&view=overlay&sound=on"), "the address with sound")
    assert host.el("stream-preview").get_attribute("href") == link.get_attribute("value")
