"""The host's whole journey as one walk through the page (issue 28, "Tests"), at 390×844 and
1280×800, each on a fresh server: the lobby host link the server prints → a giveaway room of its
own made from the title "Spring Giveaway" (`spring-giveaway`), its host link kept → 200 pasted
names with a spreadsheet's header row "Name" and one 133-character name → the header skipped and
the long name fixed from the page → 3 winners, a prize, short flips → the 3 winners revealed one
by one ("Draw the next winner") → a no-show redrawn → the result page with the title, the prize
and all the winners. Every state is photographed (artifacts/screenshots/journey-*.png, copied to
docs/screenshots); axe finds nothing serious or critical on the new states."""
import re

import pytest

from .browser_harness import axe
from .browser_harness.pages import DESKTOP, DrawPage, new_driver, set_viewport
from .browser_harness.paths import ARTIFACTS
from .test_room_entrants import paste, saved, type_into

PHONE = (390, 844)
SHOTS = ARTIFACTS / "screenshots"
TITLE, ROOM, PRIZE = "Spring Giveaway", "spring-giveaway", "A signed copy of “Dune”"
LONG = ("Maximilian Alexander " * 7)[:-1][:133]  # 133 characters: past the server's 100
NAMES = ["Name"] + [f"Person {i:03}" for i in range(1, 200)]
NAMES[150] = LONG  # line 151 of the paste
FIXED = "Max Alexander"
HOST_LINK = re.compile(r"(https?://\S+/\?room=lobby#key=[0-9a-f]{48})")


def _shot(page, state, size, at=None):
    """The viewport as a host sees it there: the page's top, or the part `at` (a data-testid) centred."""
    if at:
        page.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", page.el(at))
    else:
        page.driver.execute_script("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.driver.save_screenshot(str(SHOTS / f"journey-{state}-{size[0]}.png"))


def _audit(page, screen, size):
    """axe at both sizes and schemes (once, in the desktop run); the page keeps its own size."""
    if size != DESKTOP:
        return []
    failing = axe.audit(page, f"journey: {screen}")
    set_viewport(page.driver, size)
    return failing


def _problems(page):
    return page.driver.execute_script("""return [...document.querySelectorAll('[data-testid="list-problems"] li')]
        .map((li) => [li.dataset.kind, Number(li.dataset.line)])""")


def _press(page, line, label):
    page.driver.find_element("css selector",
                             f'[data-testid="list-problems"] li[data-line="{line}"] button[aria-label^="{label}"]').click()


def _revealed(page, slot):
    page.wait(lambda d: len(page.items("winners-so-far-list")) == slot
              and page.text("round-counter") == f"Winner {slot} of 3", f"winner {slot} revealed")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_host_goes_from_the_printed_link_to_a_posted_result(server_factory, size):
    server = server_factory()
    printed = HOST_LINK.search("\n".join(server.lines))
    assert printed, "the server printed no lobby host link"
    driver = new_driver(size)
    page = DrawPage(driver, server.base_url)
    failing = []
    try:
        # 1. The printed link opens the lobby as its host, which leads to a room of one's own.
        driver.get(printed.group(1).replace(printed.group(1).split("/?")[0], server.base_url))
        page.wait(lambda d: page.connected() and page.visible("lobby-intro"), "the lobby's host view")
        page.el("room-input").send_keys(TITLE)
        page.wait(lambda d: page.text("room-slug") == f"The room will be called “{ROOM}”.", "the room name")
        page.el("create-button").click()
        page.wait(lambda d: page.visible("room-links"), "the save-the-link step")
        host_link = page.el("host-link").get_attribute("value")
        assert host_link.startswith(f"{server.base_url}/?room={ROOM}#key=")
        _shot(page, "1-room-made", size, at="room-links")

        # 2. The room's own page, as host, with the title kept.
        page.el("host-link-open").click()
        page.wait(lambda d: page.connected() and page.text("room-name") == ROOM, "the new room's page")
        page.wait(lambda d: page.text("giveaway-title") == TITLE, "the title on the stage")
        assert page.visible("entrants-panel")  # opened as its host

        # 3. 200 lines from a spreadsheet: the header row is found before saving, and skipped.
        paste(page, "entrants-input", "\n".join(NAMES))
        page.wait(lambda d: _problems(page) == [["header", 1]], "the header row found")
        _shot(page, "2-header-row", size, at="list-problems-box")
        failing += _audit(page, "a header row in the pasted list", size)
        _press(page, 1, "Skip")
        page.wait(lambda d: _problems(page) == [], "the header skipped")
        assert page.el("entrants-input").get_attribute("value").split("\n")[0] == "Person 001"

        # 4. The server refuses the long name: its line is marked, fixed in place, and the list saved.
        page.el("entrants-save").click()
        _, error, _ = saved(page, "entrants")
        assert "too long" in error
        page.wait(lambda d: ["too-long", 150] in _problems(page), "the long line marked")
        _shot(page, "3-long-name", size, at="list-problems-box")
        _press(page, 150, "Show")
        selected = driver.execute_script("const t = arguments[0]; return t.value.slice(t.selectionStart, t.selectionEnd)",
                                         page.el("entrants-input"))
        assert selected == LONG
        driver.execute_script("""const t = arguments[0]; t.setRangeText(arguments[1]);
            t.dispatchEvent(new Event('input', {bubbles: true}));""", page.el("entrants-input"), FIXED)
        page.el("entrants-save").click()
        page.wait(lambda d: page.text("entrants-status").startswith("Saved"), "the list saved")
        assert "199 entrants" in page.text("entrants-status")
        page.wait(lambda d: "199 entrants" in page.text("list-source"), "the room's own list")

        # 5. Three winners, a prize, and short flips for the test (seconds, as a host types them).
        for testid, value in (("setting-prize", PRIZE), ("setting-winners", "3"), ("setting-rounds", "4"),
                              ("setting-interval", "0.1"), ("setting-countdown", "0")):
            type_into(page, testid, value)
        page.el("settings-save").click()
        page.wait(lambda d: page.text("settings-status").startswith("Saved"), "the settings saved")
        page.wait(lambda d: page.text("giveaway-prize") == f"Prize: {PRIZE}", "the prize on the stage")
        page.wait(lambda d: page.visible("reveal-choice"), "the reveal choice (3 winners)")
        _shot(page, "4-ready", size, at="reveal-choice")

        # 6. One reveal per winner, each started by the host.
        page.record()
        page.el("reveal-host").click()
        page.el("start-button").click()
        for slot in (1, 2):
            _revealed(page, slot)
            page.wait(lambda d: page.visible("next-winner-button"), "Draw the next winner")
            if slot == 1:
                _shot(page, "5-next-winner", size)
                failing += _audit(page, "waiting for the host to draw winner 2", size)
            page.el("next-winner-button").click()
        page.wait_phase("result")
        winners = page.items("winner-list")
        assert len(winners) == 3 and len(set(winners)) == 3
        counters = [c for c in page.recorded()["counters"] if "flip" in c]
        assert all(f"Winner {s} of 3 — flip 4 of 4" in counters for s in (1, 2, 3)), counters
        assert page.verify_status() == "ok"
        first_draw = page.text("draw-id")
        _shot(page, "6-three-winners", size)

        # 7. Winner 2 does not show up: redrawn, with a confirmation first.
        rows = page.items("redraw-list")
        removed = rows[1].replace("Redraw (no-show)", "").strip()
        kept = [rows[0].replace("Redraw (no-show)", "").strip(), rows[2].replace("Redraw (no-show)", "").strip()]
        driver.find_elements("css selector", '[data-testid="redraw-button"]')[1].click()
        page.wait(lambda d: page.visible("redraw-confirm"), "the confirmation")
        assert removed in page.text("redraw-question")
        _shot(page, "7-redraw-confirm", size, at="redraw-confirm")
        page.el("redraw-yes").click()
        page.wait(lambda d: page.result_draw_id() not in (None, "", first_draw), "the redraw")
        note = page.text("redraw-note")
        assert f"replaces {removed}, who did not show up" in note, note
        replacement = note.split(" replaces ")[0]
        assert page.verify_status() == "ok"
        redraw_id = page.text("draw-id")
        _shot(page, "8-redrawn", size)

        # 8. The result page to post, as the people it is posted to open it (a browser without
        # the host key): title, prize, and every winner standing.
        errors = page.severe_console_errors()
        driver.quit()
        driver = new_driver(size)
        page = DrawPage(driver, server.base_url)
        driver.get(f"{server.base_url}/?draw={redraw_id}")
        page.wait(lambda d: page.text("giveaway-title") == TITLE, "the result page's title")
        assert page.text("giveaway-prize") == f"Prize: {PRIZE}"
        assert page.verify_status() == "ok" and page.verify_items().get("redraw") is True
        now = page.text("redraw-note")
        for name in [replacement] + kept:
            assert name and name in now, (name, now)
        assert removed not in now.split("The winners now:")[-1]
        assert not page.visible("host-panel")
        _shot(page, "9-result-page", size)
        failing += _audit(page, "the result page of a redraw", size)
        assert not failing, "\n".join(failing)
        # The one refusal the journey asks for (the long name) is the only error the console saw.
        errors += page.severe_console_errors()
        assert all("/entrants - Failed to load resource" in e and "422" in e for e in errors), errors
    finally:
        driver.quit()
