"""The list as a host sees it (issue 28, item 3): 200 pasted names with a spreadsheet's header
row, a blank-looking line, a name twice and a 133-character name; each problem line named by its
number, fixed or skipped from its own button without pasting again; the saved list shown again
after a reload to edit; no lone "@" before pasted names."""
import pytest

from helpers.http import created_room

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS
from .test_modules import run
from .test_room_entrants import paste, saved

PHONE = (390, 844)
LONG = "Maximilian " * 12 + "Ødegaard"  # 140 characters: past the server's 100
NAMES = ["Name"] + [f"Person {i:03}" for i in range(1, 199)] + ["—"]
NAMES[177] = LONG  # on line 178, as in the issue
NAMES[60] = "Person 029"  # a repeated name


def problems(page):
    return page.driver.execute_script("""return [...document.querySelectorAll('[data-testid="list-problems"] li')]
        .map((li) => [li.dataset.kind, Number(li.dataset.line), li.textContent])""")


def press(page, line, label):
    page.driver.find_element("css selector",
                             f'[data-testid="list-problems"] li[data-line="{line}"] button[aria-label^="{label}"]').click()


def test_the_check_finds_headers_blanks_and_repeats_by_name(open_page):
    page = open_page()
    found = run(page, "/js/list-check.js", """return m.checkList('Name\\nAnn Lee\\n\\n  ...  \\nBob\\nann lee\\n' + 'x'.repeat(9),
        {maxChars: 8}).map((p) => [p.kind, p.line, p.blocking])""")
    assert found == [["header", 1, False], ["blank", 4, False], ["duplicate", 6, False], ["too-long", 7, True]]
    assert run(page, "/js/list-check.js", "return m.withoutLine('a\\nb\\nc', 2)") == "a\nc"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_host_fixes_one_line_without_pasting_again(server, size):
    room = created_room(server)
    driver = new_driver(size)
    try:
        page = DrawPage(driver, server.base_url).open(room["room"], room["hostKey"])
        paste(page, "entrants-input", "\n".join(NAMES))
        page.wait(lambda d: page.visible("list-problems-box"), "the problem lines")
        found = problems(page)
        assert [(k, n) for k, n, _ in found] == [("header", 1), ("duplicate", 61), ("blank", 200)]
        assert "“Person 029” is on line 30 and again on line 61" in found[1][2]
        # The header and the stray dash are skipped one click each; the repeat stays (two people may share a name).
        press(page, 200, "Skip")
        press(page, 1, "Skip")
        page.wait(lambda d: [k for k, _, _ in problems(page)] == ["duplicate"], "the skipped lines gone")

        # The server refuses the 140-character name: that line is marked, the rest is kept in the box.
        page.el("entrants-save").click()
        status, error, _ = saved(page, "entrants")
        assert "too long" in error
        page.wait(lambda d: any(k == "too-long" for k, _, _ in problems(page)), "the long line marked")
        [(kind, line, text)] = [p for p in problems(page) if p[0] == "too-long"]
        assert line == 177 and "140 characters" in text  # the header is gone: one line up
        driver.save_screenshot(str(ARTIFACTS / "screenshots" / f"host-list-problem-{size[0]}.png"))
        assert axe.audit(page, "host: a problem line") == []
        press(page, line, "Show")  # selects the line in the box, to fix it there
        selected = driver.execute_script("const t = arguments[0]; return t.value.slice(t.selectionStart, t.selectionEnd)",
                                         page.el("entrants-input"))
        assert selected == LONG
        driver.execute_script("""const t = arguments[0]; t.setRangeText('Max Ødegaard');
            t.dispatchEvent(new Event('input', {bubbles: true}));""", page.el("entrants-input"))
        page.el("entrants-save").click()
        page.wait(lambda d: page.text("entrants-status").startswith("Saved"), "the list saved")
        assert "198 entrants" in page.text("entrants-status")

        # After a reload the box is empty; the saved list comes back into it to edit.
        driver.refresh()
        page.wait(lambda d: page.connected() and page.visible("entrants-load"), "the saved-list button")
        page.el("entrants-load").click()
        page.wait(lambda d: page.el("entrants-input").get_attribute("value").startswith("Person 001\n"), "the saved list")
        lines = page.el("entrants-input").get_attribute("value").split("\n")
        assert len(lines) == 198 and lines[176] == "Max Ødegaard"

        # A pasted list has no usernames: the entrant list shows names without a lone "@".
        page.el("start-button").click()
        page.wait_phase("result")
        page.el("entrants-open").click()
        page.wait(lambda d: len(page.items("entrants-rows")) > 0, "the entrant rows")
        assert all("@" not in row for row in page.items("entrants-rows"))
    finally:
        driver.quit()
