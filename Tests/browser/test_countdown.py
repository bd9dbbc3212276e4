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
        page.wait(lambda d, page=page: page.text("round-counter") == "Round 1 of 10", "round 1", timeout=20)
    seen = [changes(first), changes(second)]
    for s in seen:
        assert ["3", "2", "1", ""] == [t for t in s if t in ("3", "2", "1", "")], s
        # One second per number.
        assert abs(s["1"] - s["2"] - 1000) < 150 and abs(s["2"] - s["3"] - 1000) < 150, s
    for text in ("2", "1", ""):
        assert abs(seen[0][text] - seen[1][text]) < 100, (text, seen)


def test_a_late_joiner_counts_from_the_right_second(server_factory, open_page):
    # A long countdown, so that opening a second browser (a second or more on a busy machine)
    # still lands inside it; the check is that the late page shows the same second as the early.
    srv = server_factory(countdown_ms=10000, round_interval_ms=200)
    room = created_room(srv)
    early = open_page(room["room"], server=srv)
    api(srv, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    early.wait(lambda d: early.text("countdown") == "8", "second 8", timeout=20)
    late = open_page(room["room"], server=srv)  # joins during the countdown: its snapshot says how far
    assert late.phase() == "live"
    late.wait(lambda d: late.text("countdown") != "", "the late page's countdown", timeout=5)
    # Read both at (nearly) the same moment: the same second, or one apart across a boundary.
    seconds = [int(page.text("countdown") or 0) for page in (early, late)]
    assert seconds[0] > 0 and abs(seconds[0] - seconds[1]) <= 1, seconds
    assert late.text("round-counter") == "The draw starts in"
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    late.driver.save_screenshot(str(ARTIFACTS / "screenshots" / "countdown-desktop.png"))
    late.wait(lambda d: late.text("round-counter") == "Round 1 of 10", "round 1", timeout=20)
