"""Headless Chromium and a page object for the viewer page, read through its data-testid hooks."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# Debian's packages; Selenium Manager must not try to download a browser or driver.
os.environ.setdefault("SE_OFFLINE", "true")
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
WAIT_S = 15

PHONE = (360, 740)
DESKTOP = (1280, 800)


def new_driver(size=DESKTOP, extra_args=()):
    """`extra_args`: more Chromium flags, e.g. to trust a test certificate."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", f"--window-size={size[0]},{size[1]}", *extra_args):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_S)
    driver.set_script_timeout(WAIT_S)
    set_viewport(driver, size)
    return driver


def set_viewport(driver, size):
    """Exact CSS viewport, independent of window decorations; phones get mobile emulation."""
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def emulate_media(driver, **features):
    """emulate_media(driver, prefers_reduced_motion='reduce'): CSS media features as a user sets them."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": name.replace("_", "-"), "value": value} for name, value in features.items()]})


# Installed into the page by the tests: records what the page showed, in order, so a test can
# check every round appeared even when rounds are 100 ms apart. It only observes the DOM.
RECORDER = """
if (!window.__seen) {
  const seen = window.__seen = {phases: [], counters: [], banners: [], said: [], flipAnimations: []};
  const q = (id) => document.querySelector(`[data-testid="${id}"]`);
  const note = () => {
    const phase = q('stage').dataset.phase, counter = q('round-counter').textContent;
    const banner = q('banner').hidden ? '' : q('banner').dataset.reason;
    if (seen.phases.at(-1) !== phase) seen.phases.push(phase);
    if (phase === 'live' && seen.counters.at(-1) !== counter) {
      seen.counters.push(counter);
      seen.flipAnimations.push(q('current-name').getAnimations().length);
    }
    const said = q('announcer').textContent;
    if (said && seen.said.at(-1) !== said) seen.said.push(said);
    if (seen.banners.at(-1) !== banner) seen.banners.push(banner);
  };
  new MutationObserver(note).observe(document.body,
    {subtree: true, childList: true, characterData: true, attributes: true});
  note();
}
"""


class DrawPage:
    def __init__(self, driver, base_url):
        self.driver = driver
        self.base_url = base_url

    def open(self, room="lobby", key=None):
        url = f"{self.base_url}/?room={room}" + (f"#key={key}" if key else "")
        self.driver.get(url)
        self.wait(lambda d: self.connected(), "the page to connect")
        return self

    def el(self, testid):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def text(self, testid):
        return self.el(testid).text

    def visible(self, testid):
        return self.el(testid).is_displayed()

    def phase(self):
        return self.el("stage").get_attribute("data-phase")

    def result_draw_id(self):
        """The shown draw's id if the stage shows a result, else None: one read of both, since a
        phase read and then an id read can straddle the next draw's `started` (the old result's
        phase with the new draw's id)."""
        return self.driver.execute_script("""
            const stage = document.querySelector('[data-testid="stage"]');
            const id = document.querySelector('[data-testid="draw-id"]');
            return stage.dataset.phase === 'result' && id ? id.innerText.trim() : null""")

    def connected(self):
        return not self.visible("banner") and "watching" in self.text("viewer-count")

    def wait(self, condition, what, timeout=WAIT_S):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(
            condition, message=f"timed out waiting for {what}")

    def wait_phase(self, phase, timeout=WAIT_S):
        self.wait(lambda d: self.phase() == phase, f"phase {phase} (now {self.phase()})", timeout)

    def record(self):
        self.driver.execute_script(RECORDER)

    def recorded(self):
        return self.driver.execute_script("return window.__seen")

    def verify_status(self, timeout=WAIT_S):
        """Waits for the verify panel to finish and returns its status (ok/mismatch/error)."""
        self.wait(lambda d: self.el("verify-result").get_attribute("data-status") in ("ok", "mismatch", "error"),
                  "the verify panel to finish", timeout)
        return self.el("verify-result").get_attribute("data-status")

    # Lists are re-rendered as a whole, so they are read in one script call, never element by element.
    def verify_items(self):
        return self.driver.execute_script("""return Object.fromEntries([...document.querySelectorAll(
            '[data-testid="verify-items"] li')].map((li) => [li.dataset.item, li.dataset.ok === 'true']))""")

    def warnings(self):
        """[(code, text)] of the host's merge warnings."""
        return self.driver.execute_script("""return [...document.querySelectorAll(
            '[data-testid="warnings"] li')].map((li) => [li.dataset.code, li.textContent])""")

    def items(self, testid, code=False):
        """The texts of a list's items ([code, text] pairs with `code`: their data-code)."""
        return self.driver.execute_script("""return [...document.querySelectorAll(
            `[data-testid="${arguments[0]}"] li`)].map((li) => arguments[1] ? [li.dataset.code, li.textContent]
            : li.textContent)""", testid, code)

    def round_history(self):
        return self.driver.execute_script("""return [...document.querySelectorAll(
            '[data-testid="round-history"] li')].map((li) => li.textContent)""")

    def recent_draws(self):
        """[(drawId, status, has a Verify button)] of the recent draws, newest first."""
        return [tuple(row) for row in self.driver.execute_script("""return [...document.querySelectorAll(
            '[data-testid="recent-list"] li')].map((li) => [li.dataset.drawId, li.dataset.status,
            li.querySelector('button') !== null])""")]

    def verify_recent(self, draw_id):
        """Presses a recent draw's Verify with the keyboard; returns the panel's final status."""
        self.driver.find_element(
            By.CSS_SELECTOR, f'[data-testid="recent-list"] button[data-draw-id="{draw_id}"]').send_keys(Keys.ENTER)
        self.wait(lambda d: self.text("verify-draw-id") == f"Draw {draw_id}"
                  and self.el("verify-result").get_attribute("data-status") != "running",
                  f"the verify panel to check {draw_id}")
        return self.el("verify-result").get_attribute("data-status")

    def severe_console_errors(self):
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
