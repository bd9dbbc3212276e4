"""Accessibility: reduced motion, dark mode, keyboard focus, and a live region that is not chatty."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from helpers.http import api, created_room

from .browser_harness.pages import emulate_media


def test_reduced_motion_shows_the_same_rounds_without_flipping(server, open_page):
    room = created_room(server)
    moving = open_page(room["room"])
    still = open_page(room["room"])
    emulate_media(still.driver, prefers_reduced_motion="reduce")
    for page in (moving, still):
        page.record()
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    for page in (moving, still):
        page.wait_phase("result")
    moved, stayed = moving.recorded(), still.recorded()
    assert stayed["counters"] == moved["counters"]
    assert still.round_history() == moving.round_history()
    assert any(moved["flipAnimations"])
    assert not any(stayed["flipAnimations"])


def test_live_region_announces_start_and_result_only(server, open_page):
    room = created_room(server)
    page = open_page(room["room"])
    page.record()
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait_phase("result")
    said = page.recorded()["said"]
    winner = page.text("winner-name")
    assert said[0] == "A draw is starting."
    assert said[1].startswith("The draw started: 10 flips among 4 entrants")
    assert said[-1].startswith(f"The winner is {winner}")
    assert sum(s.startswith("The winner is") for s in said) == 1  # said once, after the last flip
    assert len(said) <= 4  # not one announcement per flip
    assert page.el("announcer").get_attribute("aria-live") == "polite"


def test_dark_mode_follows_the_system_setting(open_page):
    page = open_page()
    background = "return getComputedStyle(document.body).backgroundColor"
    light = page.driver.execute_script(background)
    emulate_media(page.driver, prefers_color_scheme="dark")
    dark = page.driver.execute_script(background)
    brightness = lambda css: sum(int(c) for c in css[css.index("(") + 1:-1].split(",")[:3])
    assert brightness(light) > 600
    assert brightness(dark) < 150


def test_host_reaches_start_by_keyboard_with_visible_focus(server, open_page):
    page = open_page(key="0" * 48)
    start = page.el("start-button")
    for _ in range(15):  # skip link, create-room field and so on come first or after
        if page.driver.switch_to.active_element == start:
            break
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
    assert page.driver.switch_to.active_element == start
    outline = page.driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle", start)
    assert outline == "solid"
    start.send_keys(Keys.SPACE)
    page.wait(lambda d: page.visible("host-revoked"), "the refusal of a wrong key")
    # The button is gone with the refused key: focus moves to the sentence that says why.
    assert page.driver.switch_to.active_element == page.el("host-revoked")


# Every control a keyboard user should reach: visible, enabled, in the tab order.
CONTROLS = """return [...document.querySelectorAll('a[href], button, input, textarea, select, summary, [tabindex]')]
  .filter((e) => !e.disabled && e.tabIndex >= 0 && e.checkVisibility({visibilityProperty: true})
    && e.getClientRects().length > 0)"""
FOCUS_RING = """const s = getComputedStyle(document.activeElement);
  return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2"""


def test_every_control_is_reached_by_tab_with_a_visible_ring(server, open_page):
    """The host's page after a draw shows the most controls: sound, share, start, verify, the
    recent draws' links and buttons, the pasted-record form. Tab walks all of them, in order,
    and each shows the focus ring (:focus-visible) when reached by keyboard."""
    room = created_room(server)
    page = open_page(room["room"], room["hostKey"])
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait_phase("result")
    page.verify_status()
    page.wait(lambda d: len(page.recent_draws()) == 1, "the draw in the recent list")
    # Opened without a click, which would move where Tab starts from: the walk starts at the top.
    page.driver.execute_script("document.getElementById('verify-other').open = true")
    wanted = page.driver.execute_script(CONTROLS)
    reached, unringed = [], []
    for _ in range(len(wanted) + 5 + 8):
        ActionChains(page.driver).send_keys(Keys.TAB).perform()
        focused = page.driver.switch_to.active_element
        # A date and time picker takes one Tab per part (day, month, year, hours, minutes, …).
        if reached and focused == reached[-1] and focused.get_attribute("type") == "datetime-local":
            continue
        if focused in reached or focused.tag_name == "body":  # past the last one: the browser's own UI
            break
        reached.append(focused)
        if not page.driver.execute_script(FOCUS_RING):
            unringed.append(focused.get_attribute("outerHTML")[:80])
    assert page.el("start-button") in reached and len(reached) >= 10, len(reached)
    describe = lambda els: [e.get_attribute("outerHTML")[:80] for e in els]
    assert describe([e for e in wanted if e not in reached]) == []
    assert unringed == []
