"""axe-core (vendor/axe.min.js, MPL-2.0, unmodified) run inside the real page, on every screen at
phone and desktop size, light and dark.

`audit(page, screen)` records what axe found under the screen's name (the suite prints the
summary at the end: conftest's pytest_terminal_summary) and returns the moderate, serious and
critical violations, which the tests assert are none. Minor ones are reported, not failed.
(Moderate joined the failing set once the last one, two landmarks both named "Entrants" on the
host's screens, was fixed: a new one now fails where it appears instead of piling up.)
"""
from collections import Counter

from .pages import DESKTOP, emulate_media, set_viewport
from .paths import ARTIFACTS, BROWSER_TESTS

AXE_JS = BROWSER_TESTS / "vendor" / "axe.min.js"
SIZES = {"390x844": (390, 844), "1280x800": DESKTOP}
SCHEMES = ("light", "dark")
FAILING = ("moderate", "serious", "critical")
IMPACTS = ("critical", "serious", "moderate", "minor")
# WCAG 2.x A and AA plus axe's best practices (landmarks, one h1, region, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
REPORT = ARTIFACTS / "accessibility.txt"

# screen name -> {(size, scheme): [violation, ...]}, filled by audit(), printed by summary_lines().
RESULTS: dict = {}

# Finite animations (a flip, the winner's pop, a colour transition after switching to dark) are
# run to their end first: axe measures contrast from computed styles, and a half-faded name
# would be measured at a colour nobody reads it in. Infinite ones cannot finish and are left.
RUN = """
const [tags, done] = arguments;
for (const a of document.getAnimations()) { try { a.finish(); } catch (e) { /* infinite */ } }
axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' '))}))),
  (e) => done({error: String(e)}));
"""


def _inject(driver):
    # Through the driver, not a <script>: the page's CSP (default-src 'self') allows no inline
    # script, and the engine must not be served by the server under test.
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(AXE_JS.read_text(encoding="utf-8"))


def audit(page, screen):
    """Runs axe on what `page` shows now, at both sizes and in both schemes; returns
    ["screen size scheme: rule (impact) at selector: help", ...] for the FAILING impacts."""
    driver, failing = page.driver, []
    found = RESULTS.setdefault(screen, {})
    try:
        for size_name, size in SIZES.items():
            set_viewport(driver, size)
            for scheme in SCHEMES:
                emulate_media(driver, prefers_color_scheme=scheme)
                _inject(driver)
                violations = driver.execute_async_script(RUN, TAGS)
                assert not isinstance(violations, dict), f"axe failed on {screen}: {violations}"
                found[(size_name, scheme)] = violations
                failing += [f"{screen} {size_name} {scheme}: {v['id']} ({v['impact']}) at "
                            f"{', '.join(v['nodes'][:3])}: {v['help']}"
                            for v in violations if v["impact"] in FAILING]
    finally:
        set_viewport(driver, DESKTOP)
        emulate_media(driver, prefers_color_scheme="light")
    return failing


def summary_lines():
    """One line per screen: violations (nodes) by impact over its four renderings, then the rules."""
    lines = []
    for screen, runs in RESULTS.items():
        nodes, rules = Counter(), Counter()
        for violations in runs.values():
            for v in violations:
                nodes[v["impact"]] += len(v["nodes"])
                rules[f"{v['id']} ({v['impact']})"] += 1
        counts = ", ".join(f"{impact} {nodes[impact]}" for impact in IMPACTS)
        lines.append(f"{screen:<28} {len(runs)} runs: {counts}")
        lines += [f"    {rule} in {n} of {len(runs)} runs" for rule, n in sorted(rules.items())]
    return lines


def write_report():
    """artifacts/accessibility.txt: the summary, kept with the screenshots."""
    if RESULTS:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text("\n".join(summary_lines()) + "\n", encoding="utf-8")
