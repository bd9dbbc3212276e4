"""A host brings their own entrants from the page (issue 15): pasted names or chosen files, the
count and the warnings in plain words, several winners on every page, and each refusal said."""
import json
import os
import re
import shutil

from selenium.webdriver.common.keys import Keys

from helpers import http
from helpers.http import api, created_room
from helpers.seed import SEED_USERS

from .browser_harness.lists import lottery
from .browser_harness.contrast import contrast_failures
from .browser_harness.pages import DrawPage, emulate_media
from .browser_harness.paths import ARTIFACTS, REPO

SHOT = ARTIFACTS / "screenshots" / "host-entrants.png"
# README's picture of the panels; refreshed only with UPDATE_README_SCREENSHOT=1 (test_screenshots.py).
README_SHOT = REPO / "docs" / "screenshots" / "host-entrants.png"

# 200 lines: 195 people, then five lines that repeat four of their names (two people may share a name).
NAMES = [f"Person {i:03}" for i in range(1, 196)] + [f"Person {i:03}" for i in (7, 19, 42, 42, 150)]


def paste(page, testid, text):
    """What a paste does to a text box: its value changes, and it fires `input`."""
    page.driver.execute_script("""const box = arguments[0]; box.focus(); box.value = arguments[1];
        box.dispatchEvent(new Event('input', {bubbles: true}));""", page.el(testid), text)


def type_into(page, testid, text):
    field = page.el(testid)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    field.send_keys(text)


def saved(page, panel):
    """Waits for the panel's answer (status or error) and returns (status, error, details)."""
    page.wait(lambda d: page.text(f"{panel}-status") not in ("", "Saving…") or page.visible(f"{panel}-error"),
              f"the {panel} panel's answer")
    error = page.visible(f"{panel}-error")
    return (page.text(f"{panel}-status"), page.text(f"{panel}-error") if error else "",
            page.text(f"{panel}-error-detail") if error else "")


def list_warnings(page):
    return page.items("list-warnings", code=True)


def winner_list(page):
    return page.items("winner-list")


def shoot_panels(page):
    """The host's Entrants and Settings panels, for people to look at (and README's picture)."""
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.driver.execute_script("arguments[0].scrollIntoView()", page.el("entrants-panel"))
    assert page.el("entrants-panel").screenshot(str(SHOT))
    if os.environ.get("UPDATE_README_SCREENSHOT") == "1":
        shutil.copyfile(SHOT, README_SHOT)


def contrast_in_both_schemes(page):
    """WCAG AA failures (test_layout.py's measure) of what `page` shows, light and dark."""
    page.driver.execute_script("document.getAnimations().forEach((a) => a.finish())")
    failures = {}
    for scheme in ("light", "dark"):
        emulate_media(page.driver, prefers_color_scheme=scheme)
        failures[scheme] = contrast_failures(page)
    emulate_media(page.driver, prefers_color_scheme="light")
    return {k: v for k, v in failures.items() if v}


def host_with_list(server, open_page, text):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"], server=server)
    paste(host, "entrants-input", text)
    host.el("entrants-save").click()
    return room, host


def test_pasted_names_three_winners_for_every_viewer(server, open_page):
    room, host = host_with_list(server, open_page, "\n".join(NAMES) + "\n\n")
    status, error, _ = saved(host, "entrants")
    assert (status, error) == ("Saved: this room now draws from its own list of 200 entrants.", "")
    assert host.text("list-source") == "This room draws from its own list: 200 entrants."
    assert list_warnings(host) == [["duplicate_name", "4 duplicate names: each appears more than once. "
                                    "Every line is entered, since two people may share a name."]]
    assert host.text("list-warning-codes") == "Details: duplicate_name ×4."
    assert host.text("entrant-count") == "200 entrants"

    type_into(host, "setting-winners", "3")
    type_into(host, "setting-decelerate", "0.2")  # seconds on the page, milliseconds on the wire
    type_into(host, "setting-countdown", "0.5")  # seconds on the page, milliseconds on the wire
    host.el("settings-save").click()
    assert saved(host, "settings")[:2] == ("Saved: the next draw has 3 winners.", "")
    settings = api(server, "GET", f"/api/rooms/{room['room']}")[1]["settings"]
    assert (settings["winners"], settings["decelerateToMs"], settings["countdownMs"]) == (3, 200, 500)
    assert host.text("entrant-count") == "200 entrants · 3 winners"
    shoot_panels(host)

    viewers = [open_page(room["room"]) for _ in range(3)]
    for viewer in viewers:
        assert viewer.text("entrant-count") == "200 entrants · 3 winners"  # from the snapshot
        assert not viewer.visible("entrants-panel") and not viewer.visible("settings-panel")
        viewer.record()
    host.el("start-button").click()

    everyone = [host, *viewers]
    for page in everyone:
        page.wait_phase("result")
    shown = [winner_list(page) for page in everyone]
    assert shown[0] == shown[1] == shown[2] == shown[3] and len(shown[0]) == 3
    record = api(server, "GET", f"/api/draws/{host.text('draw-id')}")[1]
    picks = record["winnerPicks"]
    assert len({p["index"] for p in picks}) == 3 and all(not p["void"] for p in picks)
    assert all(p["username"] == "" for p in picks)  # a plain-text list has no usernames: none shown
    assert shown[0] == [p["name"] for p in picks]
    assert all(page.text("outcome").lower() == "the 3 winners are" for page in everyone)
    assert not host.visible("winner-name")  # the list takes the one big name's place
    assert contrast_in_both_schemes(host) == {}  # the places, and the panels with their warnings

    said = [s for s in viewers[0].recorded()["said"] if "winners" in s]
    assert said == [f"The 3 winners of 3 places: 1: {picks[0]['name']}. 2: {picks[1]['name']}. 3: {picks[2]['name']}."]
    assert viewers[1].verify_status() == "ok"
    items = viewers[1].verify_items()
    assert items and all(items.values()) and {"winner-1", "winner-2", "winner-3"} <= set(items)

    names = f"{picks[0]['name']}, {picks[1]['name']} and {picks[2]['name']}"
    host.wait(lambda d: any(f"{names} won" in row for row in host.driver.execute_script(
        """return [...document.querySelectorAll('[data-testid="recent-list"] li')].map((li) => li.textContent)""")),
        "the recent draws to name the three winners")

    late = DrawPage(viewers[0].driver, server.base_url).open(room["room"])  # a newcomer: the last result's card
    late.wait(lambda d: late.visible("last-result"), "the last result")
    assert f"{names} won · " in late.text("last-result")
    result_page = DrawPage(viewers[2].driver, server.base_url)
    viewers[2].driver.get(f"{server.base_url}/?draw={record['drawId']}")
    result_page.wait_phase("result")
    assert winner_list(result_page) == shown[0]
    # Three winners revealed one at a time (issue 28): ten flips each.
    assert result_page.text("draw-summary").splitlines()[0].split(" · ")[1:] == ["200 entrants", "10 flips per winner", "3 winners"]
    assert result_page.verify_status() == "ok"
    assert host.severe_console_errors() == []


def test_seed_json_files_with_every_entry_void_warn_the_host(server, open_page, tmp_path):
    users, entries = tmp_path / "users.json", tmp_path / "usersInLottery.json"
    users.write_text(json.dumps(SEED_USERS))
    entries.write_text(json.dumps(lottery([{"userId": 182, "void": True}, {"userId": 4, "void": True},
                                           {"userId": 999, "void": False}])))
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"])
    assert not host.visible("all-void")
    host.el("entrants-file").send_keys(f"{users}\n{entries}")  # both files chosen at once
    host.wait(lambda d: host.text("entrants-file-note") == "Ready to save: users.json and usersInLottery.json.",
              "the chosen files")
    host.el("entrants-save").click()
    assert saved(host, "entrants")[:2] == ("Saved: this room now draws from its own list of 2 entrants.", "")
    assert host.text("all-void") == "Every entry is void: this draw cannot have a winner."
    assert list_warnings(host) == [["unknown_user", "1 lottery entry was left out: the user list has no such user."]]
    assert host.el("start-button").get_attribute("aria-disabled") == "false"  # it may still start

    assert api(server, "PUT", f"/api/rooms/{room['room']}/settings", {"winners": 2}, key=room["hostKey"])[0] == 200
    viewer = open_page(room["room"])
    assert viewer.text("entrant-count") == "2 entrants · 2 winners" and not viewer.visible("all-void")
    host.el("start-button").click()
    for page in (host, viewer):  # two places, both drawn void: each said plainly, nobody won
        page.wait_phase("result")
        assert page.text("outcome").lower() == "no winner this time"
        lines = winner_list(page)
        assert sorted(lines) == sorted(f"{name} a void entry: no winner for place {i}"
                                       for i, name in enumerate([line.split(" a void")[0] for line in lines], 1))
        assert sorted(line.split(" a void")[0] for line in lines) == ["Mack", "Mohsen"]
    assert contrast_in_both_schemes(host) == {}  # muted void places, the all-void warning

    host.el("entrants-default").click()
    assert saved(host, "entrants")[:2] == ("Saved: this room now draws from the server's names.", "")
    assert not host.visible("all-void") and not host.visible("entrant-count")


def test_each_refusal_is_said_in_words(server_factory, open_page):
    # Slow rounds: the panels are checked while a draw runs.
    server = server_factory(max_entrants=5, max_name_chars=12, max_winners=4, max_upload_bytes=400,
                            round_interval_ms=1000)
    room, host = host_with_list(server, open_page, "\n".join(f"Name {i}" for i in range(6)))
    status, error, detail = saved(host, "entrants")
    assert error == "Too many entrants: this server takes at most 5 entrants per room."
    assert detail.startswith("Details: too_many_entrants.")
    assert host.text("list-source").startswith("This room draws from the server's names.")  # nothing kept

    paste(host, "entrants-input", "Ann\nBartholomew Longname\n")
    host.el("entrants-save").click()
    assert saved(host, "entrants")[1] == "A name is too long: names may have at most 12 characters (see the name on line 2)."

    # Short names (the page now marks lines past the 12-character limit itself), 440 bytes.
    paste(host, "entrants-input", "\n".join(["abcdefghij"] * 40))
    host.el("entrants-save").click()
    assert saved(host, "entrants")[1] == "The list is too large: this server takes lists of up to 400 bytes."

    paste(host, "entrants-input", "")
    host.el("entrants-save").click()
    assert saved(host, "entrants")[1] == "Paste at least one name, or choose a file."
    assert not host.visible("entrants-error-detail")  # the page's own sentence has no code

    type_into(host, "setting-winners", "9")
    host.el("settings-save").click()
    status, error, detail = saved(host, "settings")
    assert error == "The number of winners must be between 1 and 4 on this server."
    assert detail.startswith("Details: invalid_settings.")
    assert contrast_in_both_schemes(host) == {}  # both refusals and their details lines

    assert api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])[0] == 202
    host.wait_phase("live")
    assert host.visible("entrants-busy")  # "The list can be changed once the draw has ended."
    for button in ("entrants-save", "settings-save"):
        assert host.el(button).get_attribute("aria-disabled") == "true"
    host.el("settings-save").click()  # refused by the page itself: nothing is sent
    assert host.text("settings-status") == "" and host.el("entrants-input").get_attribute("readonly")


def documented_codes(route):
    """The error codes docs/PROTOCOL.md's API table lists for `route` ("PUT /api/rooms/ROOM/…")."""
    row = next(line for line in (REPO / "docs" / "PROTOCOL.md").read_text().splitlines()
               if line.startswith(f"| `{route}"))
    return set(re.findall(r"`\d{3} ([a-z_]+)`", row.split("|")[3]))


def test_every_code_the_server_sends_has_its_sentence(open_page):
    """Each merge warning, each refusal of a list and of settings (as PROTOCOL.md lists them):
    a sentence of its own, never the catch-all and never the bare code."""
    protocol = (REPO / "docs" / "PROTOCOL.md").read_text()
    warnings = set(re.findall(r"`([a-z_]+)`", protocol.split("Warning codes:")[1].split("\n\n")[0]))
    assert {"unknown_user", "duplicate_entry", "duplicate_user", "duplicate_name"} <= warnings
    lists = documented_codes("PUT /api/rooms/ROOM/entrants") | documented_codes("DELETE /api/rooms/ROOM/entrants")
    settings = documented_codes("PUT /api/rooms/ROOM/settings")
    assert "too_many_entrants" in lists and "invalid_settings" in settings
    page = open_page()
    said = page.driver.execute_async_script("""const [warnings, lists, settings, done] = arguments;
        import('/js/room-words.js').then((m) => done({
          warnings: warnings.map((code) => [code, m.warningText({code, count: 2})]),
          lists: lists.map((code) => [code, m.listRefusalText({code, message: 'x'})]),
          settings: settings.map((code) => [code, m.settingsRefusalText({code, message: 'x'})]),
        }));""", sorted(warnings), sorted(lists), sorted(settings))
    for kind, fallback in (("warnings", "other warnings"), ("lists", "was not saved"), ("settings", "were not saved")):
        for code, text in said[kind]:
            bare = "_" in code and code in text  # "busy" may be a word; "draw_running" is a code
            assert fallback not in text and not bare and text.endswith("."), (kind, code, text)


# Set over the API rather than from the panels (entrants-a's checks of the same screens).
def _put(server, room, key, path, body, content_type):
    resp = http.request(server, "PUT", f"/api/rooms/{room}/{path}", body=body,
                        headers={"Content-Type": content_type, "Authorization": f"Bearer {key}"})
    assert resp.status == 200, resp.body


def test_the_host_sees_the_count_and_an_all_void_list(server, open_page):
    room = created_room(server)
    users = [{"userId": 1, "name": "Ann", "username": "ann", "regDate": "2020-01-02"}]
    _put(server, room["room"], room["hostKey"], "entrants",
         json.dumps({"users": users, "usersInLottery": [{"userId": 1, "void": True}]}), "application/json")
    host = open_page(room["room"], room["hostKey"])
    host.wait(lambda d: host.visible("all-void"), "the all-void warning")
    assert host.text("all-void") == "Every entry is void: this draw cannot have a winner."
    assert host.text("entrant-count") == "1 entrant"
    viewer = open_page(room["room"])
    assert not viewer.visible("all-void")


def test_three_winners_are_listed_on_every_page(server, open_page):
    room = created_room(server)
    names = [f"Person {i}" for i in range(1, 13)]
    _put(server, room["room"], room["hostKey"], "entrants", "\n".join(names), "text/plain")
    _put(server, room["room"], room["hostKey"], "settings", json.dumps({"winners": 3}), "application/json")
    host = open_page(room["room"], room["hostKey"])
    viewer = open_page(room["room"])
    host.wait(lambda d: host.text("entrant-count") == "12 entrants · 3 winners", "the count")
    host.el("start-button").click()
    shown = []
    for page in (host, viewer):
        page.wait_phase("result")
        page.wait(lambda d, page=page: page.visible("winner-list"), "the winner list")
        shown.append([li.text for li in page.el("winner-list").find_elements("css selector", "li")])
    assert shown[0] == shown[1] and len(shown[0]) == 3 and len(set(shown[0])) == 3, shown
    status, snap = http.api(server, "GET", f"/api/rooms/{room['room']}")
    assert status == 200
    picks = snap["lastResult"]["winnerPicks"]
    assert shown[0] == [p["name"] for p in picks]  # no usernames in a plain-text list: no lone "@"
    assert host.text("outcome").lower() == "the 3 winners are"  # shown in capitals by the stylesheet


def test_an_open_page_shows_a_new_list_without_reconnecting(server, open_page):
    room = created_room(server)
    _put(server, room["room"], room["hostKey"], "entrants", "Ann\nBob", "text/plain")
    host = open_page(room["room"], room["hostKey"])
    host.wait(lambda d: host.text("entrant-count") == "2 entrants", "the first count")
    # The host replaces the list (from anywhere: curl here): the `room` message updates the page.
    _put(server, room["room"], room["hostKey"], "entrants", "Ann\nBob\nCy\nDee\nEve", "text/plain")
    host.wait(lambda d: host.text("entrant-count") == "5 entrants", "the new count")
