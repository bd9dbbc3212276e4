"""Confetti on the result page never covers a control: it used to start above the result and
fall over "Copy the result and its link" (and the link to the live room). Every frame of the
fall is checked: no piece overlaps a visible control, and the point at each control's centre is
the control itself (what a click there would reach)."""
from helpers.http import api, created_room

from .browser_harness.pages import DESKTOP, PHONE

# Runs the confetti from its start at 4× speed and looks at every frame until it has fallen.
WATCH_THE_FALL = """const done = arguments[arguments.length - 1];
const pieces = [...document.querySelectorAll('.result .confetti span')];
const falls = pieces.flatMap((p) => p.getAnimations());
if (falls.length === 0) return done({error: 'no confetti is falling'});
falls.forEach((a) => { a.currentTime = 0; a.playbackRate = 4; });
const controls = [...document.querySelectorAll('#stage :is(button, a[href], input, select, textarea, summary)')]
  .filter((c) => c.getClientRects().length > 0);
const seen = {frames: 0, controls: controls.map((c) => c.id || c.textContent.trim()), covered: [], missed: []};
const overlaps = (a, b) => a.right > b.left && a.left < b.right && a.bottom > b.top && a.top < b.bottom;
const frame = () => {
  seen.frames++;
  for (const c of controls) {
    const box = c.getBoundingClientRect();
    const name = c.id || c.textContent.trim();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!c.contains(hit)) seen.missed.push(`${name}: ${hit?.outerHTML.slice(0, 60)}`);
    for (const p of pieces) {
      if (Number(getComputedStyle(p).opacity) > 0.05 && overlaps(p.getBoundingClientRect(), box)) {
        seen.covered.push(`${name} by piece ${pieces.indexOf(p) + 1}`);
      }
    }
  }
  if (falls.every((a) => a.playState === 'finished')) return done(seen);
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);"""


def test_confetti_never_covers_a_control_on_the_result_page(server, open_page):
    room = created_room(server)
    watcher = open_page(room["room"])
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    watcher.wait_phase("result")
    draw_id = watcher.text("draw-id")
    for size in (PHONE, DESKTOP):
        page = open_page(size=size)
        page.driver.get(f"{server.base_url}/?draw={draw_id}")
        page.wait(lambda d, page=page: page.phase() == "result" and page.visible("result-share-button"),
                  "the result page with its copy button")
        page.driver.set_script_timeout(20)
        seen = page.driver.execute_async_script(WATCH_THE_FALL)
        assert "error" not in seen, seen
        assert "result-share-button" in seen["controls"], seen["controls"]
        assert seen["frames"] > 10, "the fall was watched frame by frame"
        assert seen["covered"] == [], f"{size}: {sorted(set(seen['covered']))}"
        assert seen["missed"] == [], f"{size}: {sorted(set(seen['missed']))}"
