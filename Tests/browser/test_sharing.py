"""Sharing a room (issue 28, item 7): the whole room link with a copy button, a large "show the
QR code" view for a projector (the viewer link only, never the key), a warning when the page's
address is a loopback one, and a host page whose address bar and panels do not show `#key=`."""
import pytest

from helpers.http import api, created_room

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS
from .test_modules import run

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots"


def test_loopback_addresses_are_told_apart(open_page):
    page = open_page()
    hosts = ["localhost", "app.localhost", "127.0.0.1", "127.1.2.3", "[::1]", "0.0.0.0",
             "draw.example.org", "192.168.1.20", "10.0.0.5", "[2001:db8::1]", "127.example.org"]
    got = run(page, "/js/share-address.js", f"return {hosts!r}.map(m.isLoopbackHost)")
    assert got == [True] * 6 + [False] * 5


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_host_shares_the_room_without_showing_the_key(server, size):
    room = created_room(server)
    api(server, "PUT", f"/api/rooms/{room['room']}/settings", key=room["hostKey"])  # nothing: the defaults
    driver = new_driver(size)
    try:
        host = DrawPage(driver, server.base_url).open(room["room"], room["hostKey"])
        viewer_link = f"{server.base_url}/?room={room['room']}"
        # The address bar lost the key; a reload is still the host's page (kept for this tab).
        assert "#key=" not in driver.current_url and room["hostKey"] not in driver.current_url
        driver.refresh()
        host.wait(lambda d: host.connected() and host.visible("host-panel"), "the host's page after a reload")

        # The host link is on the page, hidden until asked for.
        link = host.el("own-host-link")
        assert link.get_attribute("type") == "password"
        assert link.get_attribute("value") == f"{viewer_link}#key={room['hostKey']}"
        host.el("own-host-link-show").click()
        assert link.get_attribute("type") == "text"
        assert host.el("own-host-link-show").get_attribute("aria-pressed") == "true"
        host.el("own-host-link-show").click()
        assert link.get_attribute("type") == "password"
        body = driver.execute_script("return document.body.innerText")
        assert room["hostKey"] not in body and "#key=" not in body

        # The whole link, wrapped, with its own copy button; the page is on 127.0.0.1 here.
        share = host.el("share-link")
        assert share.get_attribute("value") == viewer_link
        assert driver.execute_script("const e = arguments[0]; return e.scrollWidth <= e.clientWidth", share)
        assert host.visible("share-copy")
        warning = host.text("share-local-warning")
        assert "only works on this computer" in warning and "127.0.0.1" in warning

        # The presenter view: a QR code as large as the screen allows, the viewer link, no key.
        host.el("share-present").click()
        host.wait(lambda d: host.visible("presenter"), "the presenter view")
        qr = driver.execute_script("""const r = document.getElementById('presenter-qr').getBoundingClientRect();
            return [r.width, r.height, r.top, r.bottom, r.left, r.right]""")
        assert qr[0] >= 0.6 * min(size[0] * 0.9, size[1] * 0.7) and qr[0] >= 250, qr
        assert qr[2] >= 0 and qr[3] <= size[1] and qr[4] >= 0 and qr[5] <= size[0], qr
        host.wait(lambda d: driver.execute_script(
            "return document.getElementById('presenter-qr').naturalWidth > 0"), "the QR image")
        assert host.text("presenter-url") == viewer_link
        assert host.visible("presenter-warning")
        shown = driver.execute_script("return document.getElementById('presenter').innerText")
        assert room["hostKey"] not in shown and "key=" not in shown
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"presenter-qr-{size[0]}.png"))
        assert axe.audit(host, f"presenter QR ({size[0]})") == []
        # Headless Chromium has no display to give: the request itself is what is checked.
        driver.execute_script("""window.__fullscreen = [];
            Element.prototype.requestFullscreen = function () { window.__fullscreen.push(this.id); return Promise.resolve(); };""")
        host.el("presenter-full").click()
        host.wait(lambda d: driver.execute_script("return window.__fullscreen") == ["presenter"],
                  "full screen asked for the presenter view")
        host.el("presenter-close").click()
        host.wait(lambda d: not host.visible("presenter"), "the presenter view closed")
        assert driver.switch_to.active_element == host.el("share-present")  # focus back where it was
    finally:
        driver.quit()


def test_a_refused_key_is_forgotten_by_the_tab(server, open_page):
    room = created_room(server)
    host = open_page(room["room"], "not-the-key")
    host.el("start-button").click()  # the server says no to the key's first use
    host.wait(lambda d: host.visible("host-revoked"), "the refusal")
    host.driver.refresh()
    host.wait(lambda d: host.connected(), "the page after a reload")
    assert not host.visible("host-panel")  # a viewer now, not a host with a stored wrong key
