"""Scheduled draws on the page (issue 30): the host schedules the room's draw from the host panel
with a time picked in their own time zone; a viewer sees "Draw at HH:MM" with a countdown, then
the draw runs by itself at that time, and its result verifies."""
import time
from datetime import datetime

from helpers.http import api, created_room
from helpers.rooms import put_entrants, put_settings

from .browser_harness.paths import ARTIFACTS

SET_TIME = """
const input = document.querySelector('[data-testid="schedule-at"]');
input.value = arguments[0];
input.dispatchEvent(new Event('input', {bubbles: true}));
"""


def test_the_host_schedules_from_the_page_and_a_viewer_sees_the_countdown_then_the_draw(server_factory, open_page):
    srv = server_factory(round_interval_ms=100, countdown_ms=0)
    room = created_room(srv)
    name, key = room["room"], room["hostKey"]
    assert put_entrants(srv, name, key, "Ann\nBen\nCleo\nDev").status == 200
    assert put_settings(srv, name, key, {"rounds": 3}).status == 200
    viewer = open_page(name, server=srv)
    host = open_page(name, key, server=srv)
    assert host.visible("schedule-form") and not viewer.el("schedule-form").is_displayed()
    assert "changing the list afterwards does not change this draw" in host.text("schedule-form")

    # The picker takes the host's local time (the browsers run here, in this machine's zone).
    at = datetime.fromtimestamp(time.time() + 6).replace(microsecond=0)
    host.driver.execute_script(SET_TIME, at.strftime("%Y-%m-%dT%H:%M:%S"))
    host.el("schedule-button").click()
    host.wait(lambda d: host.text("schedule-status") == "Scheduled.", "the schedule's answer")
    assert host.visible("schedule-cancel") and not host.visible("schedule-button")

    viewer.wait(lambda d: viewer.visible("scheduled-draw"), "the schedule to reach the viewer")
    # In the viewer's own time zone and locale ("18:00", "6:00 PM"): as its browser writes the time.
    local = viewer.driver.execute_script(
        "return new Date(arguments[0]).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'})", at.timestamp() * 1000)
    assert viewer.text("scheduled-when") == f"Draw at {local}"
    assert at.strftime("%M") in local
    assert viewer.text("scheduled-left").startswith("in 0:0"), viewer.text("scheduled-left")
    assert "4 entrants are fixed" in viewer.text("scheduled-proof")
    assert viewer.text("idle-message") == "This draw is scheduled: it starts by itself."
    scheduled = api(srv, "GET", f"/api/rooms/{name}")[1]["scheduled"]
    assert scheduled["commitment"][:12] in viewer.text("scheduled-proof")
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    viewer.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "scheduled-draw-viewer.png"))
    host.driver.execute_script("document.querySelector('[data-testid=\"schedule-form\"]').scrollIntoView()")
    host.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "scheduled-draw-host.png"))

    viewer.wait_phase("result", timeout=30)
    assert not viewer.visible("scheduled-draw")
    status, record = api(srv, "GET", f"/api/draws/{scheduled['drawId']}")
    assert status == 200 and record["status"] == "finished" and record["verified"] is True, record
    assert record["startedAt"] >= scheduled["at"]
    assert viewer.verify_status() == "ok"
    assert not viewer.severe_console_errors()
    # The host can schedule the next one again.
    host.wait(lambda d: host.visible("schedule-button"), "the host's control to be back")
