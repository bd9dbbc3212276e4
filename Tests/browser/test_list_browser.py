"""The saved list, read only (issue 28, item 3): a host pastes 120 names and saves them, then
browses the room's own list as the server keeps it: 50 names a page with each one's place,
Previous/Next, "Names 51–100 of 120" said in a live region, and a search that ignores case and
accents. At 390×844 and 1280×800; axe finds nothing serious or critical on the view."""
import pytest

from helpers.http import created_room

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS
from .test_modules import run
from .test_room_entrants import paste, saved

PHONE = (390, 844)
NAMES = [f"Person {i:03}" for i in range(1, 121)]
NAMES[72] = "Sophia Ødegaard"   # place 73
NAMES[101] = "José Álvarez"     # place 102


def rows(page):
    return page.driver.execute_script("""return [...document.querySelectorAll('[data-testid="list-browser-rows"] li')]
        .map((li) => [Number(li.dataset.position), li.querySelector('bdi').textContent, li.textContent])""")


def disabled(page, testid):
    return page.el(testid).get_attribute("aria-disabled") == "true"


def search(page, text):
    paste(page, "list-browser-search", text)


def test_the_search_ignores_case_and_accents(open_page):
    page = open_page()
    assert run(page, "/js/list-browser.js", "return ['Sophia Ødegaard', 'JOSÉ  Álvarez', 'Straße'].map(m.foldName)") \
        == ["sophia odegaard", "jose alvarez", "strasse"]
    assert run(page, "/js/list-browser.js",
               "return m.countText({first: 51, last: 100, matching: 200, total: 200, query: ''})") == "Names 51–100 of 200"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_host_pages_and_searches_the_saved_list(server, size):
    room = created_room(server)
    driver = new_driver(size)
    try:
        page = DrawPage(driver, server.base_url).open(room["room"], room["hostKey"])
        page.wait(lambda d: page.connected() and page.visible("entrants-panel"), "the host's Entrants panel")
        assert not page.visible("list-browser-open")  # nothing saved yet: nothing to browse
        paste(page, "entrants-input", "\n".join(NAMES))
        page.el("entrants-save").click()
        status, error, _ = saved(page, "entrants")
        assert error == "" and "120 entrants" in status

        page.wait(lambda d: page.visible("list-browser-open"), "the browse button")
        opener = page.el("list-browser-open")
        assert opener.text == "Browse the saved list" and opener.get_attribute("aria-expanded") == "false"
        opener.click()
        page.wait(lambda d: page.text("list-browser-count") == "Names 1–50 of 120", "the first page")
        assert opener.get_attribute("aria-expanded") == "true"
        first = rows(page)
        assert [p for p, _, _ in first] == list(range(1, 51)) and first[0][1] == "Person 001"
        assert disabled(page, "list-browser-previous") and not disabled(page, "list-browser-next")
        assert page.el("list-browser-count").get_attribute("role") == "status"

        page.el("list-browser-next").click()
        page.wait(lambda d: page.text("list-browser-count") == "Names 51–100 of 120", "the second page")
        assert [p for p, _, _ in rows(page)] == list(range(51, 101))
        assert rows(page)[22][1] == "Sophia Ødegaard"
        assert not disabled(page, "list-browser-previous")
        page.el("list-browser-next").click()
        page.wait(lambda d: page.text("list-browser-count") == "Names 101–120 of 120", "the last page")
        assert len(rows(page)) == 20 and disabled(page, "list-browser-next")
        page.el("list-browser-next").click()  # stays on the last page
        assert page.text("list-browser-count") == "Names 101–120 of 120"
        page.el("list-browser-previous").click()
        page.wait(lambda d: page.text("list-browser-count") == "Names 51–100 of 120", "back one page")

        # Case and accents do not matter; each match keeps its place in the whole list.
        search(page, "odegaard")
        page.wait(lambda d: [p for p, _, _ in rows(page)] == [73], "Ødegaard found")
        assert page.text("list-browser-count") == "Names 1–1 of 1 that match “odegaard” (120 entrants in the list)"
        search(page, "JOSE ALVAREZ")
        page.wait(lambda d: [(p, n) for p, n, _ in rows(page)] == [(102, "José Álvarez")], "José found")
        search(page, "person 1")
        page.wait(lambda d: page.text("list-browser-count").startswith("Names 1–20 of 20"), "the Person 1xx names")
        assert rows(page)[0][:2] == [100, "Person 100"]
        assert disabled(page, "list-browser-previous") and disabled(page, "list-browser-next")
        driver.save_screenshot(str(ARTIFACTS / "screenshots" / f"list-browser-{size[0]}.png"))
        assert axe.audit(page, "host: browsing the saved list") == []
        search(page, "nobody here")
        page.wait(lambda d: page.text("list-browser-count") == "No name matches “nobody here” (120 entrants in the list).",
                  "no match said")
        assert rows(page) == [] and not page.visible("list-browser-rows")
        assert axe.audit(page, "host: no name matches") == []
        # No sideways scrolling at either size.
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")

        # Saved again, the open view shows the new list; back to the server's names, it is gone.
        search(page, "")
        paste(page, "entrants-input", "\n".join(NAMES[:60]))
        page.el("entrants-save").click()
        page.wait(lambda d: page.text("list-browser-count") == "Names 1–50 of 60", "the new list")
        page.el("entrants-default").click()
        page.wait(lambda d: not page.visible("list-browser-open") and not page.visible("list-browser"), "the view gone")
    finally:
        driver.quit()
