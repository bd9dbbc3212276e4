"""The 3-2-1 before round 1 (issue 16): part of the schedule, so every viewer shows the same
second at the same moment, a late joiner too, counted on the server's clock."""
from helpers.http import api, created_room

from .browser_harness.paths import ARTIFACTS

# Records, on the machine's clock (both browsers run here), when each countdown text appeared.
WATCH = """
window.__count = [];
const el = document.querySelector('[data-testid="countdown"]');
new MutationObserver(() => {
  const text = el.hidden ? '' : el.textContent;
  if (window.__count.at(-1)?.[0] !== text) window.__count.push([text, performance.timeOrigin + performance.now()]);
}).observe(el, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def changes(page):
    return {text: at for text, at in page.driver.execute_script("return window.__count")}


def test_two_viewers_count_down_together_to_round_one(server_factory, open_page):
    srv = server_factory(countdown_ms=3000, round_interval_ms=200)
    room = created_room(srv)
    first, second = open_page(room["room"], server=srv), open_page(room["room"], server=srv)
    for page in (first, second):
        page.driver.execute_script(WATCH)
    api(srv, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    for page in (first, second):
        page.wait(lambda d, page=page: page.text("round-counter") == "Flip 1 of 10", "round 1", timeout=20)
    seen = [changes(first), changes(second)]
    for s in seen:
        assert ["3", "2", "1", ""] == [t for t in s if t in ("3", "2", "1", "")], s
        # One second per number.
        assert abs(s["1"] - s["2"] - 1000) < 150 and abs(s["2"] - s["3"] - 1000) < 150, s
    for text in ("2", "1", ""):
        assert abs(seen[0][text] - seen[1][text]) < 100, (text, seen)


def test_a_late_joiner_counts_from_the_right_second(server_factory, open_page):
    srv = server_factory(countdown_ms=6000, round_interval_ms=200)
    room = created_room(srv)
    early = open_page(room["room"], server=srv)
    # Chromium takes seconds to start on a busy machine: the late page waits in another room,
    # and only its navigation into this one happens during the countdown.
    late = open_page(created_room(srv)["room"], server=srv)
    api(srv, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    early.wait(lambda d: early.text("countdown") == "5", "second 5", timeout=20)
    late.open(room["room"])  # joins during the countdown: its snapshot says how far
    assert late.phase() == "live"
    assert late.text("round-counter") == "The draw starts in"
    shown = lambda: (late.text("countdown"), early.text("countdown"))
    late.wait(lambda d: shown()[0] != "" and shown()[0] == shown()[1], "the same second as the early viewer")
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    late.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "countdown-desktop.png"))
    late.wait(lambda d: late.text("round-counter") == "Flip 1 of 10", "round 1", timeout=20)
