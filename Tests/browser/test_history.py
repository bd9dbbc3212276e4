"""Recent draws: the page lists the room's recorded draws newest first (PROTOCOL.md §5.1) and
checks any ended one from its stored record (§5.2) in the same verify panel."""
import signal

from helpers.http import api, created_room


def test_two_draws_are_listed_newest_first_and_the_older_verifies(server_factory, open_page):
    srv = server_factory()
    room = created_room(srv, "history")
    page = open_page(room["room"], server=srv)
    ids = []
    for _ in range(2):
        status, body = api(srv, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
        assert status == 202, body
        page.wait(lambda d: page.result_draw_id() not in ids + [None, ""], "the next result")
        ids.append(page.text("draw-id"))

    newest_first = [(ids[1], "finished", True), (ids[0], "finished", True)]
    page.wait(lambda d: page.recent_draws() == newest_first, f"the list {newest_first} (now {page.recent_draws()})")
    assert not page.visible("recent-more")  # two draws fit one page

    assert page.verify_recent(ids[0]) == "ok", page.text("verify-result")
    items = page.verify_items()
    assert set(items) == {"commitment", "entrants", "outcome", *(f"round-{r}" for r in range(1, 11))}
    assert all(items.values())
    assert not page.visible("verify-note")
    assert page.severe_console_errors() == []


def test_a_draw_stopped_by_shutdown_verifies_only_the_rounds_shown(server_factory, open_page):
    # No drain: SIGTERM aborts at once (with the default grace the draw would finish first).
    srv = server_factory(round_interval_ms=600, shutdown_grace_ms=0)
    page = open_page(server=srv)
    api(srv, "POST", "/api/rooms/lobby/draws", key=srv.lobby_key)
    page.wait(lambda d: page.text("round-counter") == "Flip 2 of 10", "round 2")
    draw_id = page.text("draw-id")
    srv.stop(sig=signal.SIGTERM)
    page.wait_phase("aborted")
    # The list says "stopped" at once, as the stage does, not "live" until the next refresh.
    page.wait(lambda d: page.recent_draws() == [(draw_id, "aborted", True)], "the aborted draw in the list")
    srv.restart()  # same data directory: the aborted record is still there
    page.wait(lambda d: page.connected(), "the page to reconnect")
    page.wait(lambda d: page.recent_draws() == [(draw_id, "aborted", True)], "the stored aborted draw")
    assert page.verify_recent(draw_id) == "ok", page.text("verify-result")
    items = page.verify_items()
    shown = {r for r in range(1, 11) if f"round-{r}" in items}
    assert shown and shown == set(range(1, len(shown) + 1)) and len(shown) < 10, items
    assert "outcome" not in items and all(items.values())
    assert "the server shut down" in page.text("verify-note").lower()
