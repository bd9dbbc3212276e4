"""A page that knows when it is cut off (issue 13): behind a line that silently stops carrying
data (no FIN, no RST: helpers/proxy.py), the page shows the reconnect banner within its bound,
greys its live dot and viewer count, disables Start, and once the line heals it reconnects and
shows the result of the draw that finished meanwhile. Also: a refused host key."""
import time

from helpers.http import api, created_room
from helpers.proxy import SilentDropProxy

# Heartbeats every second: the page's bound is then 3 × 1 s (public/js/liveness.js).
HEARTBEAT_S = 1
BOUND_S = 3 * HEARTBEAT_S
# The page checks its deadline every 250 ms; Chromium and a debug server share two cores.
MARGIN_S = 1.5

# Records the type of every message the page's sockets receive, before the page's own code runs.
HEARD = """
const Native = window.WebSocket;
window.__heard = [];
window.WebSocket = class extends Native {
  constructor(...a) {
    super(...a);
    this.addEventListener('message', (ev) => {
      try { window.__heard.push(JSON.parse(ev.data).type); } catch {}
    });
  }
};
"""


def _open_behind(open_page, srv, proxy, key=None):
    page = open_page(server=srv)  # a Chromium of its own, to install the recorder in
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HEARD})
    page.base_url = proxy.base_url
    page.open("lobby", key)
    return page


def _heard(page):
    return page.driver.execute_script("return window.__heard")


def _last_result(srv, room="lobby", timeout=20):
    """The room's last result once its draw has finished (polled over the API, not the pages)."""
    deadline = time.monotonic() + timeout
    while True:
        _, body = api(srv, "GET", f"/api/rooms/{room}")
        if body["lastResult"] is not None:
            return body["lastResult"]
        assert time.monotonic() < deadline, "the draw did not finish"
        time.sleep(0.1)


def _assert_cut_off(page):
    assert page.recorded()["banners"][:2] == ["", "lost"]
    assert page.driver.execute_script("return document.body.dataset.connection") == "retrying"
    assert page.el("viewer-count").get_attribute("data-stale") == "true"
    dot = page.driver.execute_script(
        "return getComputedStyle(arguments[0], '::before').backgroundColor", page.el("viewer-count"))
    live = page.driver.execute_script(
        "const p = document.createElement('p'); p.style.color = 'var(--ok)'; document.body.append(p);"
        "const c = getComputedStyle(p).color; p.remove(); return c")
    assert dot != live, "the live dot is still green"


def test_a_quiet_page_behind_a_silently_dropped_line_notices_within_its_bound(server_factory, open_page):
    srv = server_factory(heartbeat_seconds=HEARTBEAT_S, idle_ping_seconds=1, idle_timeout_seconds=3)
    with SilentDropProxy(srv.host, srv.port) as proxy:
        viewer = _open_behind(open_page, srv, proxy)
        host = _open_behind(open_page, srv, proxy, key=srv.lobby_key)
        for page in (viewer, host):
            # The page has learnt the server's heartbeat interval, so its bound is 3 s.
            page.wait(lambda d: "heartbeat" in _heard(page), "a heartbeat")
            page.record()

        proxy.freeze()
        frozen_at = time.monotonic()
        for page in (viewer, host):
            page.wait(lambda d: page.visible("banner"), "the reconnect banner", timeout=BOUND_S + MARGIN_S + 2)
        noticed_after = time.monotonic() - frozen_at
        assert noticed_after <= BOUND_S + MARGIN_S, f"the banner came {noticed_after:.1f}s after the freeze"
        for page in (viewer, host):
            _assert_cut_off(page)
        start = host.el("start-button")
        assert start.get_attribute("aria-disabled") == "true"
        assert start.text == "Reconnecting…"

        # Meanwhile the room draws a winner; the pages cannot hear it.
        status, _ = api(srv, "POST", "/api/rooms/lobby/draws", key=srv.lobby_key)
        assert status == 202
        winner = _last_result(srv)["winner"]["name"]
        assert viewer.visible("banner")

        proxy.heal()
        for page in (viewer, host):
            page.wait(lambda d: page.connected(), "the page to reconnect after the heal", timeout=30)
            # A draw it never saw start is the room's last result.
            page.wait(lambda d: page.visible("last-result"), "the last result")
            assert winner in page.text("last-result")
            assert page.el("viewer-count").get_attribute("data-stale") == "false"
        assert host.el("start-button").get_attribute("aria-disabled") == "false"


def test_a_page_cut_off_mid_draw_notices_the_missing_round_and_shows_the_result_after(server_factory, open_page):
    # The default heartbeat (5 s: a 15 s bound); during the draw a round is due every 0.7 s, so
    # the page asks (a ping) 0.7 s + its 2.5 s margin after the last round it heard, and gives up
    # when nothing answers within one margin more (a held draw's link answers: test_hold_notice.py).
    srv = server_factory(round_interval_ms=700, idle_ping_seconds=1, idle_timeout_seconds=3)
    step_bound_s = 0.7 + 2.5 + 2.5
    with SilentDropProxy(srv.host, srv.port) as proxy:
        viewer = _open_behind(open_page, srv, proxy)
        viewer.record()
        status, _ = api(srv, "POST", "/api/rooms/lobby/draws", key=srv.lobby_key)
        assert status == 202
        viewer.wait(lambda d: viewer.text("round-counter") == "Flip 2 of 10", "round 2")
        proxy.freeze()
        frozen_at = time.monotonic()
        viewer.wait(lambda d: viewer.visible("banner"), "the reconnect banner", timeout=step_bound_s + MARGIN_S + 2)
        noticed_after = time.monotonic() - frozen_at
        assert noticed_after <= step_bound_s + MARGIN_S, f"the banner came {noticed_after:.1f}s after the freeze"
        _assert_cut_off(viewer)
        assert viewer.phase() == "live"  # what it saw last, under the banner

        winner = _last_result(srv)["winner"]["name"]
        proxy.heal()
        viewer.wait(lambda d: viewer.connected(), "the page to reconnect after the heal", timeout=30)
        viewer.wait_phase("result")
        assert viewer.text("winner-name") == winner


def test_a_refused_host_key_turns_the_page_into_a_viewer(server, open_page):
    room = created_room(server)
    page = open_page(room["room"], key="0" * 48)
    assert page.text("role") == "host"
    page.el("start-button").click()
    page.wait(lambda d: page.visible("host-revoked"), "the refusal of the key")
    assert page.text("host-revoked").startswith(
        "This host link is no longer valid (the key was changed or the room was deleted)")
    assert page.text("role") == "viewer"
    assert not page.visible("start-button")
    assert not page.visible("host-error")
    assert page.driver.switch_to.active_element == page.el("host-revoked")
    # The key is gone from the address, so a reload does not pretend again.
    assert page.driver.execute_script("return location.hash") == ""
    # It still watches the room as any viewer.
    status, _ = api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    assert status == 202
    page.wait_phase("result")
