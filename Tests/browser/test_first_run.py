"""The host's first run (issue 28, items 1 and 2): from the lobby's host link to a giveaway room of
their own, named after its title, the host link saved as a step of its own, the room kept under
"Your rooms" in this browser; the title and prize as room settings, on the room's page, the
overlay and the result page."""
import pytest

from helpers.http import api, created_room

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.paths import ARTIFACTS
from .test_modules import run

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots"


def test_titles_become_room_names(open_page):
    page = open_page()
    names = run(page, "/js/slug.js", """return ['Spring Giveaway', '  Sophia Ødegaard’s Quiz!! ', 'Café — 2025',
        'team-a', 'Ελληνικά', 'x'.repeat(70), ('word ').repeat(20)].map(m.slugify)""")
    assert names[:5] == ["spring-giveaway", "sophia-odegaard-s-quiz", "cafe-2025", "team-a", ""]
    assert names[5] == "x" * 64  # one long word is cut at the limit
    assert names[6].endswith("word") and len(names[6]) <= 64  # many words are cut at a word's end


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_lobby_host_makes_a_giveaway_room_and_keeps_its_link(server, size):
    driver = new_driver(size)
    try:
        page = DrawPage(driver, server.base_url).open("lobby", server.lobby_key)
        # The lobby's host view says why it cannot take a list, and the way out comes first.
        page.wait(lambda d: page.visible("lobby-intro"), "the lobby's explanation")
        assert "room of its own" in page.text("lobby-intro")
        first_card = driver.execute_script("return document.querySelector('.side').firstElementChild.id")
        assert first_card == "create-room"
        assert page.text("room-slug") == "Leave it empty and the server picks a name for the room."

        title = f"Spring Giveaway {size[0]}"
        page.el("room-input").send_keys(title)
        page.wait(lambda d: page.text("room-slug") == f"The room will be called “spring-giveaway-{size[0]}”.",
                  "the room name the title makes")
        page.el("create-button").click()
        page.wait(lambda d: page.visible("room-links"), "the save-the-link step")
        room = f"spring-giveaway-{size[0]}"
        host_link = page.el("host-link").get_attribute("value")
        assert host_link.startswith(f"{server.base_url}/?room={room}#key=")
        assert page.text("save-title") == f"Save the host link of “{title}” now"
        assert driver.switch_to.active_element == page.el("save-title")  # the step is where focus goes
        page.el("copy-host-link").click()
        page.wait(lambda d: page.text("link-copied") != "", "the copy feedback")
        # Kept in this browser: "Your rooms" lists it by its title, opening as host.
        page.wait(lambda d: page.visible("my-rooms"), "Your rooms")
        mine = driver.execute_script("""return [...document.querySelectorAll('[data-testid="my-rooms-list"] li')]
            .map((li) => [li.dataset.room, li.querySelector('a').textContent, li.querySelector('a').href])""")
        assert mine[0] == [room, title, host_link]
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / f"first-run-saved-{size[0]}.png"))
        assert axe.audit(page, "first run: save the host link") == []

        # The title is the room's own setting: its page shows it, and "Your rooms" follows.
        page.el("host-link-open").click()
        page.wait(lambda d: page.connected() and page.text("room-name") == room, "the new room's page")
        page.wait(lambda d: page.text("giveaway-title") == title, "the giveaway's title on the stage")
        assert page.visible("entrants-panel") and page.visible("my-rooms")
        assert page.el("setting-title").get_attribute("value") == title

        # Forgetting it here leaves the room on the server.
        driver.find_element("css selector", f'[data-testid="my-rooms-list"] li[data-room="{room}"] button').click()
        page.wait(lambda d: not page.visible("my-rooms"), "the room forgotten in this browser")
        assert api(server, "GET", f"/api/rooms/{room}")[0] == 200
    finally:
        driver.quit()


def test_a_taken_name_is_said_in_words(server, open_page):
    created_room(server, "book-club")
    page = open_page(key=server.lobby_key)
    page.el("room-input").send_keys("Book Club")
    page.el("create-button").click()
    page.wait(lambda d: page.visible("create-error"), "the refusal")
    assert "There is already a room called “book-club”" in page.text("create-error")


def test_title_and_prize_show_on_the_page_the_overlay_and_the_result_page(server, open_page):
    created = created_room(server)
    room, key = created["room"], created["hostKey"]
    host = open_page(room, key)
    viewer = open_page(room)
    overlay = DrawPage(new_driver((1920, 1080)), server.base_url)
    try:
        overlay.driver.get(f"{server.base_url}/?room={room}&view=overlay")
        host.el("setting-title").send_keys("Spring Giveaway")
        host.el("setting-prize").send_keys("A signed copy of “Dune”")
        host.el("settings-save").click()
        host.wait(lambda d: host.text("settings-status").startswith("Saved"), "the settings saved")
        for page in (host, viewer):
            page.wait(lambda d: page.text("giveaway-title") == "Spring Giveaway"
                      and page.text("giveaway-prize") == "Prize: A signed copy of “Dune”", "the title and prize")
        host.el("start-button").click()
        viewer.wait_phase("result")
        overlay.wait(lambda d: overlay.phase() == "result", "the overlay's result")
        assert overlay.text("giveaway-title") == "Spring Giveaway"
        draw_id = viewer.text("draw-id")
        viewer.driver.get(f"{server.base_url}/?draw={draw_id}")
        viewer.wait(lambda d: viewer.text("giveaway-title") == "Spring Giveaway", "the result page's title")
        assert viewer.text("giveaway-prize") == "Prize: A signed copy of “Dune”"
        # The API keeps it, and says no to a title that is not one line.
        status, body = api(server, "PUT", f"/api/rooms/{room}/settings", key=key, body={"title": "a\nb"})
        assert status == 422 and body["error"]["code"] == "invalid_settings"
        status, body = api(server, "GET", f"/api/rooms/{room}")
        assert body["settings"]["title"] == "Spring Giveaway"
    finally:
        overlay.driver.quit()
