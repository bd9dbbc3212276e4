"""Automated accessibility check (issue 16): axe-core (vendored, browser_harness/axe.py) on every
screen people see, as served by the real server, at 390×844 and 1280×800, light and dark. A
serious or critical violation fails the test; all of them are summed up per screen at the end of
the run (and in artifacts/accessibility.txt)."""
import json
import signal

from selenium.webdriver.common.by import By

from helpers.datasource import LOTTERY, USERS
from helpers.http import api, created_room

from .browser_harness.axe import audit
from .browser_harness.lists import ONLY_VOID, lottery
from .browser_harness.pages import DrawPage


def go(page, path, ready, what):
    """Navigates `page`'s browser to `path` on its server and waits for `ready(page)`."""
    page.driver.get(page.base_url + path)
    page.wait(lambda d: ready(page), what)


def reopen(page, room, key=None):
    """page.open by way of a blank page: from the same room's address only the fragment (#key)
    would change, which the page answers with a reload the wait could race."""
    page.driver.get("about:blank")
    return page.open(room, key)


def overlay_open(page):
    return page.driver.execute_script("return document.body.dataset.connection") == "open"


def test_idle_screens(server, open_page):
    room = created_room(server)
    page = open_page(room["room"])
    failing = audit(page, "idle, viewer")
    reopen(page, room["room"], room["hostKey"])
    page.wait(lambda d: page.visible("start-button"), "the host controls")
    failing += audit(page, "idle, host")
    go(page, f"/?room={room['room']}&view=overlay", overlay_open, "the overlay")
    failing += audit(page, "overlay, idle")
    go(page, "/?room=no-such-room", lambda p: p.phase() == "unknown-room", "the unknown room")
    page.wait(lambda d: page.visible("create-room"), "the room creation form")
    failing += audit(page, "unknown room + create form")
    assert not failing, "\n".join(failing)


def test_countdown_running_and_stopped_screens(server_factory, open_page):
    # Round 1 comes one interval after the start: 25 s of a steady "live" screen, during which
    # the countdown (on a second server) is checked first.
    running = server_factory(round_interval_ms=25_000, countdown_ms=0, shutdown_grace_ms=0)
    counting = server_factory(countdown_ms=60_000)
    slow, count = created_room(running), created_room(counting)
    api(running, "POST", f"/api/rooms/{slow['room']}/draws", key=slow["hostKey"])
    api(counting, "POST", f"/api/rooms/{count['room']}/draws", key=count["hostKey"])

    page = open_page(count["room"], server=counting)
    page.wait(lambda d: page.visible("countdown"), "the countdown")
    failing = audit(page, "countdown, viewer")
    reopen(page, count["room"], count["hostKey"])
    page.wait(lambda d: page.visible("countdown"), "the countdown (host)")
    failing += audit(page, "countdown, host")

    page = DrawPage(page.driver, running.base_url).open(slow["room"])
    page.wait(lambda d: page.text("round-counter") == "Flip 1 of 10", "round 1", timeout=40)
    failing += audit(page, "running, viewer")
    reopen(page, slow["room"], slow["hostKey"])
    page.wait(lambda d: page.text("round-counter").startswith("Flip "), "a round (host)")
    failing += audit(page, "running, host")
    go(page, f"/?room={slow['room']}&view=overlay", lambda p: p.text("current-name") != "", "the overlay's name")
    failing += audit(page, "overlay, running")

    reopen(page, slow["room"])
    page.wait(lambda d: page.phase() == "live", "the running draw")
    running.stop(sig=signal.SIGTERM)  # a shutdown mid-draw: stopped, and the reconnect banner
    page.wait(lambda d: page.phase() == "aborted" and page.visible("banner"), "the stopped draw and banner")
    failing += audit(page, "stopped + reconnecting")
    assert not failing, "\n".join(failing)


def draw(server, room, page, ended, what):
    """Runs a draw in `room` and waits until `page` shows it ended as `ended(page)` says."""
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait(lambda d: ended(page), what)


def test_finished_and_failed_screens(server, source, open_page):
    room = created_room(server)
    host, stream, page = open_page(room["room"], room["hostKey"]), open_page(room["room"]), open_page(room["room"])
    go(stream, f"/?room={room['room']}&view=overlay", overlay_open, "the overlay")
    draw(server, room, page, lambda p: p.phase() == "result", "the winner")
    host.wait_phase("result")
    failing = audit(host, "winner, host")
    stream.wait_phase("result")
    failing += audit(stream, "overlay, result")
    page.verify_status()
    draw_id = page.text("draw-id")
    failing += audit(page, "winner + verify, viewer")
    page.driver.find_element(By.CSS_SELECTOR, "#verify-other summary").click()
    failing += audit(page, "verify another draw open")
    record = api(server, "GET", f"/api/draws/{draw_id}")[1]
    bad = json.dumps({**record, "seed": ("0" if record["seed"][0] != "0" else "1") + record["seed"][1:]})
    page.driver.execute_script("arguments[0].value = arguments[1]", page.el("verify-input"), bad)
    page.el("verify-input-button").click()
    assert page.verify_status() == "mismatch"
    failing += audit(page, "verify: tampered record")
    go(page, f"/?draw={draw_id}", lambda p: p.phase() == "result", "the result page")
    page.verify_status()
    failing += audit(page, "result page")
    go(page, "/?draw=" + "0" * 32, lambda p: "no recorded draw" in p.text("draw-summary"), "the unknown draw")
    failing += audit(page, "result page, unknown draw")

    source.set_json(LOTTERY, lottery(ONLY_VOID))
    source.hold(LOTTERY)  # the lists load for as long as the check of the loading screen takes
    reopen(page, room["room"])
    draw(server, room, page, lambda p: p.phase() == "loading", "the loading screen")
    failing += audit(page, "loading the lists")
    source.release()
    page.wait(lambda d: page.phase() == "result" and "does not win" in page.text("winner-username"), "the void result")
    page.verify_status()
    failing += audit(page, "no winner, viewer")
    go(page, f"/?draw={page.text('draw-id')}", lambda p: p.phase() == "result", "the void result page")
    failing += audit(page, "result page, no winner")

    source.set_json(LOTTERY, lottery([]))
    reopen(page, room["room"], room["hostKey"])
    draw(server, room, page, lambda p: p.phase() == "failed", "the empty list's failure")
    failing += audit(page, "failed: empty list, host")
    source.set_status(USERS, 503)
    source.set_status(LOTTERY, 503)
    reopen(page, room["room"])
    draw(server, room, page, lambda p: "could not be loaded" in p.text("failure"), "the source's failure")
    failing += audit(page, "failed: lists unreachable")
    assert not failing, "\n".join(failing)


def test_the_audit_sees_planted_faults(server, open_page):
    """The check itself: a nameless button and grey-on-white text added to a real screen are
    reported as critical and serious (so the zeros above are axe's findings, not a silent run)."""
    page = open_page(created_room(server)["room"])
    page.driver.execute_script("""document.getElementById('idle-message').style.color = '#bbb';
        document.querySelector('main').append(Object.assign(document.createElement('button'), {type: 'button'}));""")
    failing = audit(page, "(self-test: planted faults)")
    assert any("button-name (critical)" in f for f in failing), failing
    assert any("color-contrast (serious) at #idle-message" in f for f in failing), failing


def test_room_list_settings_and_several_winners_screens(server, open_page):
    """Issue 15's screens: the host's Entrants and Settings panels (with warnings, a refusal, the
    all-void warning), and a draw with three winners on the stage, the overlay and its result page."""
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"])
    stream = open_page(room["room"])
    go(stream, f"/?room={room['room']}&view=overlay", overlay_open, "the overlay")
    host.driver.execute_script("""const box = arguments[0]; box.value = 'Ann\\nBo\\nAnn\\nCy\\nDee';
        box.dispatchEvent(new Event('input', {bubbles: true}));""", host.el("entrants-input"))
    host.el("entrants-save").click()
    host.wait(lambda d: host.visible("list-warnings-box"), "the list's warnings")
    host.el("setting-winners").send_keys("9")  # "19": past the limit (10), refused in words
    host.el("settings-save").click()
    host.wait(lambda d: host.visible("settings-error"), "the settings' refusal")
    failing = audit(host, "host: own list with warnings, settings refused")

    void_room = created_room(server)
    api(server, "PUT", f"/api/rooms/{void_room['room']}/entrants",
        {"users": {"items": [{"userId": 1, "name": "Ann", "username": "ann", "regDate": "2024-01-01"}]},
         "usersInLottery": {"lotteryList": [{"userId": 1, "void": True}]}}, key=void_room["hostKey"])
    page = DrawPage(stream.driver, server.base_url)
    reopen(page, void_room["room"], void_room["hostKey"])
    page.wait(lambda d: page.visible("all-void"), "the all-void warning")
    failing += audit(page, "host: every entry void")

    go(stream, f"/?room={room['room']}&view=overlay", overlay_open, "the overlay")
    status = api(server, "PUT", f"/api/rooms/{room['room']}/settings", {"winners": 3}, key=room["hostKey"])[0]
    assert status == 200
    draw(server, room, host, lambda p: p.phase() == "result", "the three winners")
    stream.wait(lambda d: stream.visible("winner-list"), "the overlay's winners")
    failing += audit(stream, "overlay, three winners")
    host.verify_status()
    failing += audit(host, "three winners + verify, host")
    go(host, f"/?draw={host.text('draw-id')}", lambda p: p.phase() == "result", "the result page")
    host.verify_status()
    failing += audit(host, "result page, three winners")
    assert not failing, "\n".join(failing)
