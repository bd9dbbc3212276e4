"""Faster loads (issue 16): every module is preloaded from the page (no waterfall deeper than
two: the page, then everything it names), and a return visit revalidates instead of downloading
the page again. Prints what a load costs (requests, bytes, first paint), cold and warm."""
import re

from .browser_harness.loading import load_cost, slow_network
from .browser_harness.paths import PUBLIC_DIR

IMPORT = re.compile(r"""^import\s[^;]*?from\s+'\./([a-z-]+\.js)';""", re.M | re.S)


def imported_modules():
    """Every module main.js reaches through static imports."""
    seen, todo = set(), ["main.js"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += IMPORT.findall((PUBLIC_DIR / "js" / name).read_text(encoding="utf-8"))
    return seen - {"main.js"}


def test_every_imported_module_is_preloaded():
    html = (PUBLIC_DIR / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/js/([a-z-]+\.js)">', html))
    assert imported_modules() == preloaded


def test_a_return_visit_revalidates_and_costs_little(server, open_page):
    page = open_page()
    slow_network(page.driver)  # 40 ms round trips make request waves visible in the times
    page.driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    page.open()
    cold = load_cost(page)
    # One wave: every module is asked for before the first one (main.js) has arrived, so none
    # waited for another to be parsed to be discovered.
    first_arrival = min(arrived for _, _, arrived in cold["modules"])
    late = [path for path, asked, _ in cold["modules"] if asked >= first_arrival]
    assert len(cold["modules"]) == 23 and late == [], cold["modules"]
    page.open()
    warm = load_cost(page)
    print(f"\ncold: {cold['requests']} requests, {cold['bytes']} bytes, first paint {cold['firstPaintMs']} ms, "
          f"code ready {cold['readyMs']} ms\nwarm: {warm['requests']} requests, {warm['bytes']} bytes, "
          f"first paint {warm['firstPaintMs']} ms, code ready {warm['readyMs']} ms")
    # Only headers travel (304s; Resource Timing reports the cached copy's 200).
    assert warm["bytes"] < cold["bytes"] / 10
