"""Sound (issue 16): off by default, the choice remembered per browser, and no audio at all
before a user gesture (an AudioContext is made only on a click or key press)."""
from selenium.webdriver.common.action_chains import ActionChains

from helpers.http import api, created_room

# Counts AudioContexts and the tones they start, before any page script runs.
COUNT_AUDIO = """
window.__audio = {contexts: 0, tones: 0};
const Real = window.AudioContext;
window.AudioContext = class extends Real {
  constructor(...a) { super(...a); window.__audio.contexts++; }
  createOscillator() { const o = super.createOscillator(); const start = o.start.bind(o);
    o.start = (...a) => { window.__audio.tones++; return start(...a); }; return o; }
};
"""


def audio(page):
    return page.driver.execute_script("return window.__audio")


def test_sound_is_off_by_default_remembered_and_waits_for_a_gesture(server, open_page):
    room = created_room(server)
    page = open_page(room["room"])
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COUNT_AUDIO})
    page.open(room["room"])
    toggle = page.el("sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false" and toggle.text == "Sound off"
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait_phase("result")
    assert audio(page) == {"contexts": 0, "tones": 0}  # off: silent

    toggle.click()  # a gesture: sound may start now
    assert toggle.get_attribute("aria-pressed") == "true" and toggle.text == "Sound on"
    assert audio(page)["contexts"] == 1

    page.open(room["room"])  # remembered, but a new visit stays silent until a gesture
    assert page.el("sound-toggle").get_attribute("aria-pressed") == "true"
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait_phase("result")
    assert audio(page) == {"contexts": 0, "tones": 0}

    ActionChains(page.driver).move_to_element(page.el("stage")).click().perform()
    assert audio(page)["contexts"] == 1
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    # A tick per round and the chord of the result.
    page.wait(lambda d: audio(page)["tones"] >= 10 + 3, "ten ticks and a chord")
