"""Plain words where a host reads (issue 28, item 6): seconds, not milliseconds; "number of
flips"; no option names, codes or file names outside a "Details" part; the reconnect banner's
seconds count down."""
import re

import pytest

from helpers.http import api, created_room

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .test_modules import run

PHONE = (390, 844)
# What a host should not have to read: milliseconds, command-line options, codes, file names.
JARGON = re.compile(r"\bms\b|\(ms|--[a-z]|[a-z]+_[a-z]+|\.json\b|An empty field|default lists|\bRounds\b")

# The host panels' text as shown, without the parts kept for details (a <details> body, the
# details lines under refusals and warnings).
READABLE = """return [...arguments].map((id) => {
  const copy = document.getElementById(id).cloneNode(true);
  copy.querySelectorAll('details > :not(summary), .details, [hidden]').forEach((e) => e.remove());
  const labels = [...copy.querySelectorAll('label, .hint, button, p, summary')].map((e) => e.textContent);
  const holders = [...copy.querySelectorAll('[placeholder]')].map((e) => e.placeholder);
  return [...labels, ...holders].join(' | ').replace(/\\s+/g, ' ');
})"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_host_panels_speak_in_seconds_and_flips(server, size):
    room = created_room(server)
    driver = new_driver(size)
    try:
        host = DrawPage(driver, server.base_url).open(room["room"], room["hostKey"])
        host.wait(lambda d: host.visible("settings-panel"), "the settings panel")
        texts = driver.execute_script(READABLE, "entrants-panel", "settings-panel")
        for text in texts:
            assert not JARGON.search(text), JARGON.search(text).group(0) + " in: " + text
        labels = driver.execute_script("""return [...document.querySelectorAll('#settings-form label')]
            .map((l) => l.textContent.trim())""")
        assert "Number of flips" in labels and "Seconds between flips" in labels
        assert "Countdown before the first flip (seconds)" in labels
        # The file names are still there for whoever needs them, under "Details".
        assert "users.json" in host.el("entrants-file-details").get_attribute("textContent")

        for testid, value in (("setting-interval", "0.3"), ("setting-decelerate", "0.45")):
            host.el(testid).clear()
            host.el(testid).send_keys(value)
        host.el("settings-save").click()
        host.wait(lambda d: host.text("settings-status").startswith("Saved"), "the settings saved")
        settings = api(server, "GET", f"/api/rooms/{room['room']}")[1]["settings"]
        assert (settings["intervalMs"], settings["decelerateToMs"]) == (300, 450)
        driver.refresh()
        host.wait(lambda d: host.el("setting-interval").get_attribute("value") == "0.3", "seconds back in the form")

        # A refusal names the limit in seconds; the option name stays in the details line.
        host.el("setting-interval").clear()
        host.el("setting-interval").send_keys("600")
        host.el("settings-save").click()
        host.wait(lambda d: host.visible("settings-error"), "the refusal")
        error = host.text("settings-error")
        assert re.fullmatch(r"The time between flips must be between [\d.]+ seconds? and [\d.]+ seconds on this server\.",
                            error), error
        assert "--" in host.text("settings-error-detail")
        assert axe.audit(host, f"settings in seconds ({size[0]})") == []
    finally:
        driver.quit()


def test_a_field_the_host_emptied_is_not_refilled_by_the_room(server):
    """A change that reaches the page while the host edits (here: settings saved from another
    tab) must not refill a field the host emptied: the typed value would be appended to the old
    one ("0.3" + "600" saved as 0.36 s). Emptying by script or autofill fires only 'change'."""
    room = created_room(server)
    driver = new_driver(PHONE)
    try:
        host = DrawPage(driver, server.base_url).open(room["room"], room["hostKey"])
        host.wait(lambda d: host.visible("settings-panel"), "the settings panel")
        host.el("setting-interval").clear()  # WebDriver's clear fires 'change', not 'input'
        driver.execute_script("document.activeElement.blur()")
        status = api(server, "PUT", f"/api/rooms/{room['room']}/settings", {"winners": 4}, key=room["hostKey"])[0]
        assert status == 200
        host.wait(lambda d: "4 winners" in host.text("entrant-count"), "the other tab's change shown")
        assert host.el("setting-interval").get_attribute("value") == ""
        host.el("setting-interval").send_keys("600")
        host.el("settings-save").click()
        host.wait(lambda d: host.visible("settings-error"), "the refusal")
    finally:
        driver.quit()


def test_seconds_left_are_counted_from_the_retry_time(open_page):
    page = open_page()
    texts = run(page, "/js/retry-countdown.js", """const now = 1000000;
        return [3000, 2001, 2000, 999, 0, -50].map((left) => m.secondsLeftText({at: now + left}, now))""")
    assert texts == [f" in {n}\u00a0s…" for n in (3, 3, 2, 1, 1, 1)]


def test_the_reconnect_banner_counts_down(server_factory, open_page):
    srv = server_factory()
    page = open_page(server=srv)
    page.driver.execute_script("""window.__left = [];
        new MutationObserver(() => {
          const s = document.querySelector('[data-testid="retry-seconds"]');
          if (s && window.__left.at(-1) !== s.textContent) window.__left.push(s.textContent);
        }).observe(document.getElementById('banner'), {subtree: true, childList: true, characterData: true});""")
    srv.kill()
    # Backoff doubles up to 5 s: within a few attempts one retry is 2 s or more away, and its
    # seconds must be seen going down by one, as a clock does.
    def counted_down(_):
        left = [int(re.search(r"\d+", t).group(0)) for t in page.driver.execute_script("return window.__left")]
        return any(a - b == 1 and a >= 2 for a, b in zip(left, left[1:]))
    page.wait(counted_down, "the seconds to count down", timeout=20)
    banner = page.el("banner")
    assert banner.get_attribute("role") == "status"
    assert page.el("retry-seconds").get_attribute("aria-hidden") == "true"  # the ticking is not read out
