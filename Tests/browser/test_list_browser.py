"""The saved list (issue 28, item 3): a host pastes 120 names and saves them, then browses the
room's own list as the server keeps it: 50 names a page with each one's place, Previous/Next,
"Names 51–100 of 120" said in a live region, and a search that ignores case and accents; and,
after a reload, fixes one misspelt name of it in place ("Change"), without pasting the list again.
At 390×844 and 1280×800; axe finds nothing serious or critical on the views."""
import pytest
from selenium.webdriver.common.keys import Keys

from helpers.http import api, created_room
from helpers.rooms import put_entrants

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver, set_viewport
from .browser_harness.paths import ARTIFACTS
from .test_modules import run
from .test_room_entrants import paste, saved, type_into

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


def saved_names(server, room, key):
    status, body = api(server, "GET", f"/api/rooms/{room}/entrants", key=key)
    assert status == 200, body
    return [p["name"] for p in body["entrants"]]


def change_button(page, position):
    return page.driver.find_element("css selector",
                                    f'[data-testid="list-browser-rows"] li[data-position="{position}"] [data-action="change"]')


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_host_fixes_one_saved_name_without_pasting_the_list_again(server, size):
    room = created_room(server)
    name, key = room["room"], room["hostKey"]
    names = list(NAMES)
    names[72] = "Sofia Odegard"  # misspelt, at place 73
    assert put_entrants(server, name, key, "\n".join(names)).status == 200
    driver = new_driver(size)
    try:
        # A later visit: the paste box is empty, the list is on the server.
        page = DrawPage(driver, server.base_url).open(name, key)
        page.wait(lambda d: page.visible("list-browser-open"), "the browse button")
        assert page.el("entrants-input").get_attribute("value") == ""
        page.el("list-browser-open").click()
        search(page, "odeg")  # matches the name before and after the fix
        page.wait(lambda d: [p for p, _, _ in rows(page)] == [73], "the misspelt name found")
        button = change_button(page, 73)
        assert button.get_attribute("aria-label") == "Change “Sofia Odegard” (place 73)"

        # Escape leaves it as it was, focus back on its Change.
        button.click()
        field = page.el("list-row-input")
        assert driver.switch_to.active_element == field and field.get_attribute("value") == "Sofia Odegard"
        field.send_keys(Keys.ESCAPE)
        page.wait(lambda d: not driver.find_elements("css selector", '[data-testid="list-row-input"]'), "the editor closed")
        assert driver.switch_to.active_element == change_button(page, 73)

        # An empty name is said, not saved; the new one is saved with Enter, in its place.
        change_button(page, 73).click()
        type_into(page, "list-row-input", " ")
        page.el("list-row-save").click()
        page.wait(lambda d: page.visible("list-browser-error") and page.text("list-browser-error").startswith("Type the name"),
                  "the empty name refused")
        driver.save_screenshot(str(ARTIFACTS / "screenshots" / f"list-row-edit-{size[0]}.png"))
        if size == DESKTOP:
            assert axe.audit(page, "host: changing one saved name") == []
            set_viewport(driver, size)
        type_into(page, "list-row-input", "Sophia Ødegaard")
        page.el("list-row-input").send_keys(Keys.ENTER)
        page.wait(lambda d: page.text("list-browser-status") == "Saved: place 73 is now “Sophia Ødegaard”.", "the name saved")
        assert not page.visible("list-browser-error")
        page.wait(lambda d: [(p, n) for p, n, _ in rows(page)] == [(73, "Sophia Ødegaard")], "the list read again")
        assert driver.switch_to.active_element == change_button(page, 73)
        expected = list(names)
        expected[72] = "Sophia Ødegaard"
        assert saved_names(server, name, key) == expected
        assert page.el("entrants-input").get_attribute("value") == ""  # nothing was pasted
        page.wait(lambda d: "120 entrants" in page.text("list-source"), "the count unchanged")
    finally:
        driver.quit()


def test_a_list_from_json_files_is_not_offered_for_change(server, open_page):
    room = created_room(server)
    name, key = room["room"], room["hostKey"]
    users = [{"userId": 1, "name": "Ann", "username": "ann", "regDate": "2020-01-02"}]
    assert put_entrants(server, name, key, {"users": users, "usersInLottery": [{"userId": 1, "void": False}]}).status == 200
    page = open_page(name, key)
    page.wait(lambda d: page.visible("list-browser-open"), "the browse button")
    page.el("list-browser-open").click()
    page.wait(lambda d: [n for _, n, _ in rows(page)] == ["Ann"], "the list")
    assert not page.driver.find_elements("css selector", '[data-testid="list-browser-rows"] [data-action="change"]')
