"""Issue 28 item 2 on the page: a 3-winner draw the host reveals one winner at a time ("Draw
the next winner"), as the host's page and a viewer's show it (each winner's own flips, "Winners so
far", no reconnect while the draw waits for the host), then a redraw of one winner from the host's
result ("Redraw (no-show)", confirmed) that the result's verify panel checks against the first
draw; axe on the new states. At 1280×800 and 390×844."""
import time

import pytest

from helpers.http import created_room
from helpers.rooms import put_entrants, put_settings

from .browser_harness import axe
from .browser_harness.pages import DESKTOP
from .browser_harness.paths import ARTIFACTS

PHONE = (390, 844)
FLIPS = 4
# Longer than a step's margin (liveness.js STEP_MARGIN_MS) after the last flip: a page that took
# the wait for the host as a stall would show the reconnect banner in it.
HOST_WAIT_S = 4.5


def _room(server):
    room = created_room(server)
    name, key = room["room"], room["hostKey"]
    assert put_entrants(server, name, key, "\n".join(f"Guest {i:02}" for i in range(1, 13))).status == 200
    resp = put_settings(server, name, key, {"winners": 3, "rounds": FLIPS, "intervalMs": 100, "countdownMs": 0})
    assert resp.status == 200, resp.body
    return name, key


def _shot(page, what, size):
    """A screenshot for people to look at: artifacts/screenshots/reveal-WHAT-WxH.png."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(folder / f"reveal-{what}-{size[0]}x{size[1]}.png"))


def _revealed(page, slot):
    page.wait(lambda d: len(page.items("winners-so-far-list")) == slot
              and page.text("round-counter") == f"Winner {slot} of 3", f"winner {slot} revealed")
    return page.items("winners-so-far-list")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_three_winners_one_by_one_then_a_redraw(server, open_page, size):
    name, key = _room(server)
    host = open_page(name, key, size=size)
    viewer = open_page(name, size=size)
    for page in (host, viewer):
        page.record()
    host.wait(lambda d: host.visible("reveal-choice"), "the reveal choice (3 winners)")
    assert "One at a time, I click for each" in host.text("reveal-choice")
    host.el("reveal-host").click()
    host.el("start-button").click()

    failing = []
    for slot in (1, 2, 3):
        if slot > 1:
            host.el("next-winner-button").click()
        # Read from what the page recorded: the flips are 100 ms apart, quicker than a poll.
        for page in (host, viewer):
            page.wait(lambda d: any(c.startswith(f"Winner {slot} of 3 — flip") for c in page.recorded()["counters"]),
                      f"winner {slot}'s flips")
        if slot < 3:
            shown = [_revealed(page, slot) for page in (host, viewer)]
            assert shown[0] == shown[1]
            assert host.visible("next-winner-button") and not viewer.visible("next-winner-button")
            assert "Draw the next winner when you are ready" in host.text("next-note")
            assert "The host draws the next winner soon" in viewer.text("next-note")
            if slot == 1:
                time.sleep(HOST_WAIT_S)  # the draw waits for the host: nothing is due
                assert host.phase() == viewer.phase() == "live"
                # A viewer joining now renders from the snapshot's `progress`.
                joiner = open_page(name, size=size)
                assert _revealed(joiner, 1) == shown[0]
                assert "The host draws the next winner soon" in joiner.text("next-note")
                _shot(host, "waiting-host", size)
                if size == DESKTOP:
                    failing += axe.audit(host, "waiting for the host (host)")
                    failing += axe.audit(viewer, "waiting for the host (viewer)")
    for page in (host, viewer):
        page.wait_phase("result")
    winners = host.items("winner-list")
    assert len(winners) == 3 and winners == viewer.items("winner-list")
    for page in (host, viewer):
        seen = page.recorded()
        assert set(seen["banners"]) == {""}, f"the reconnect banner showed: {seen['banners']}"
        counters = [c for c in seen["counters"] if "flip" in c]
        assert counters[0] == f"Winner 1 of 3 — flip 1 of {FLIPS}" and f"Winner 3 of 3 — flip {FLIPS} of {FLIPS}" in counters
        assert not any(c.startswith("Round") for c in seen["counters"])
    assert viewer.verify_status() == "ok" and host.verify_status() == "ok"
    first_draw = host.text("draw-id")

    # Winner 2 does not show up: the host redraws that place.
    assert not viewer.visible("redraws")
    buttons = host.driver.find_elements("css selector", '[data-testid="redraw-button"]')
    assert [b.text for b in buttons] == ["Redraw (no-show)"] * 3
    removed = host.items("redraw-list")[1].replace("Redraw (no-show)", "").strip()
    buttons[1].click()
    host.wait(lambda d: host.visible("redraw-confirm"), "the confirmation")
    assert removed in host.text("redraw-question")
    _shot(host, "redraw-confirm", size)
    if size == DESKTOP:
        failing += axe.audit(host, "redraw confirmation")
    host.el("redraw-yes").click()
    for page in (host, viewer):
        page.wait(lambda d: page.result_draw_id() not in (None, "", first_draw),
                  "the redraw's result")
    for page in (host, viewer):
        note = page.text("redraw-note")
        assert f"replaces {removed}, who did not show up" in note, note
        assert "The winners now:" in note
        assert note.endswith("This is redraw 1 of this giveaway."), note
        assert page.verify_status() == "ok"
        assert page.verify_items().get("redraw") is True, page.verify_items()
    # The result page of the redraw verifies it against the draw it redraws too.
    redraw_id = host.text("draw-id")
    viewer.driver.get(f"{server.base_url}/?draw={redraw_id}")
    viewer.wait(lambda d: viewer.phase() == "result", "the result page")
    assert viewer.verify_status() == "ok" and viewer.verify_items().get("redraw") is True
    assert f"replaces {removed}" in viewer.text("redraw-note")
    # The room's recent draws say it too, not just "X won" (issue 37).
    host.wait(lambda d: f"replacing {removed} (redraw 1 of this giveaway)" in host.text("recent-list"),
              "the redraw's line in the recent draws")
    host.driver.execute_script("document.querySelector('[data-testid=\"recent-list\"]').scrollIntoView()")
    _shot(host, "redraw-recent-draws", size)
    # And the first draw's own page says its winner was replaced, by whom, and who stands now,
    # with a link to the redraw's page (its record alone still names the first winners).
    viewer.driver.get(f"{server.base_url}/?draw={first_draw}")
    viewer.wait(lambda d: viewer.visible("redrawn-note"), "the first draw's page to tell of the redraw")
    later = viewer.text("redrawn-text")
    assert later.startswith(f"{removed} did not show up and was replaced by ") and "(redraw 1 of this giveaway)" in later, later
    assert "The winners now:" in later and removed not in later.split("The winners now:")[1], later
    assert viewer.el("redrawn-link").get_attribute("href").endswith(f"/?draw={redraw_id}")
    # The winner list marks the replaced winner where the name stands.
    viewer.wait(lambda d: len(viewer.driver.find_elements("css selector", '[data-testid="slot-replaced"]')) == 1,
                "the replaced winner marked in the list")
    mark = viewer.driver.find_element("css selector", '[data-testid="slot-replaced"]')
    assert mark.text.startswith("did not show up: replaced by ") and mark.text.endswith("(redraw 1)"), mark.text
    assert removed in mark.find_element("xpath", "..").text
    _shot(viewer, "redrawn-first-draw-page", size)
    _shot(viewer, "redraw-result-page", size)
    if size == DESKTOP:
        failing += axe.audit(host, "redraw result (host)")
        failing += axe.audit(viewer, "redraw result page")
    assert not failing, "\n".join(failing)
    for page in (host, viewer):
        assert page.severe_console_errors() == []
