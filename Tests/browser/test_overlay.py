"""The stream overlay (issue 16): `/?room=NAME&view=overlay` is transparent and shows only the
draw, large; other sites may frame the page only when the operator lists them
(`--frame-ancestors`; by default `frame-ancestors 'none'`, as before)."""
import base64

from selenium.webdriver.common.by import By

from helpers import http
from helpers.datasource import LOTTERY
from helpers.http import api, created_room

from .browser_harness.paths import ARTIFACTS

# The alpha of a screenshot's pixel, read back through a canvas (no image library needed).
ALPHA_AT = """
const [png, x, y, done] = arguments;
const img = new Image();
img.onload = () => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  const g = c.getContext('2d'); g.drawImage(img, 0, 0); done(g.getImageData(x, y, 1, 1).data[3]); };
img.onerror = () => done(-1);
img.src = 'data:image/png;base64,' + png;
"""


def overlay(open_page, room, srv):
    page = open_page(room, server=srv)
    page.driver.get(f"{srv.base_url}/?room={room}&view=overlay")
    page.wait(lambda d: d.execute_script("return document.body.dataset.connection") == "open", "the overlay to connect")
    return page


def test_overlay_is_transparent_and_shows_only_the_draw(server, open_page):
    room = created_room(server)
    page = overlay(open_page, room["room"], server)
    backgrounds = page.driver.execute_script("""return ['html', 'body', '#stage', '#flip-card']
        .map((s) => getComputedStyle(document.querySelector(s)).backgroundColor)""")
    assert set(backgrounds) == {"rgba(0, 0, 0, 0)"}, backgrounds
    for testid in ("viewer-count", "recent-draws", "verify-panel", "share", "idle-message", "banner"):
        assert not page.visible(testid), testid
    # Painted over nothing: the screenshot's pixels are see-through (as in OBS's browser source).
    page.driver.execute_cdp_cmd("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    png = page.driver.get_screenshot_as_base64()
    assert page.driver.execute_async_script(ALPHA_AT, png, 5, 5) == 0

    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait(lambda d: page.phase() == "live" and page.text("current-name") != "", "a name")
    size = lambda testid: float(page.driver.execute_script(
        "return parseFloat(getComputedStyle(arguments[0]).fontSize)", page.el(testid)))
    assert size("current-name") >= 48
    page.wait_phase("result")
    page.wait(lambda d: page.visible("winner-name"), "the winner (after its pop)")
    assert size("winner-name") >= 48
    assert not page.visible("round-history")
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "overlay-result.png"))


def test_framing_is_refused_by_default(server):
    res = http.request(server, "GET", "/?room=lobby&view=overlay")
    assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
    assert res.headers["x-frame-options"] == "deny"


def framed(page, source, url):
    """Loads a page of another origin (the list server's) that frames `url`; returns once the
    frame has loaded (or been refused), switched into it."""
    outer = f'<!doctype html><title>-</title><iframe src="{url}" onload="document.title=\'loaded\'"></iframe>'
    source.set_raw(LOTTERY, outer.encode(), content_type="text/html")
    page.driver.get(source.url(LOTTERY))
    page.wait(lambda d: d.title == "loaded", "the frame to load or be refused")
    page.driver.switch_to.frame(page.driver.find_element(By.TAG_NAME, "iframe"))
    return page.driver.find_elements(By.CSS_SELECTOR, '[data-testid="stage"]')


def test_listed_origins_may_frame_the_overlay_and_others_may_not(server, server_factory, source, open_page):
    studio = f"http://127.0.0.1:{source.port}"  # another origin than the server's: another port
    srv = server_factory(frame_ancestors=studio)
    home = http.request(srv, "GET", "/")
    csp = home.headers["content-security-policy"]
    assert f"frame-ancestors {studio};" in csp and "x-frame-options" not in home.headers
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert http.request(srv, "GET", "/js/main.js").headers["content-security-policy"] == csp
    listed = created_room(srv)
    page = open_page(listed["room"], server=srv)
    assert framed(page, source, f"{srv.base_url}/?room={listed['room']}&view=overlay")

    # The shared server lists nobody: the same frame stays empty.
    page.driver.switch_to.default_content()
    assert not framed(page, source, f"{server.base_url}/?room=lobby&view=overlay")
