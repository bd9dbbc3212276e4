"""A failing player list gives the room one `failed` with the documented code; then it recovers.

PROTOCOL.md section 2 `failed`: codes no_players, source_unreachable, source_bad_status,
source_malformed_json, source_invalid_data, source_too_large; "The room is idle again afterwards".
"""
import pytest

from helpers import draw, http
from helpers.datasource import LOTTERY, USERS
from helpers.wsclient import WSClient, close_all, run

FETCH_MAX_BYTES = 64 * 1024


CASES = {
    # id: (how to break the source, expected code, expected warning codes or None)
    "users-500": (lambda ds: ds.set_status(USERS, 500), "source_bad_status", None),
    "lottery-503": (lambda ds: ds.set_status(LOTTERY, 503), "source_bad_status", None),
    "users-404": (lambda ds: ds.set_status(USERS, 404), "source_bad_status", None),
    "refused": (lambda ds: ds.stop_listening(), "source_unreachable", None),
    "lottery-hangs": (lambda ds: ds.set_hang(LOTTERY), "source_unreachable", None),
    "users-malformed-json": (lambda ds: ds.set_raw(USERS, b'{"items": [{"userId": 10,'), "source_malformed_json", None),
    "lottery-not-json": (lambda ds: ds.set_raw(LOTTERY, b"<html>oops</html>", content_type="text/html"),
                         "source_malformed_json", None),
    "users-missing-items": (lambda ds: ds.set_json(USERS, {"users": []}), "source_invalid_data", None),
    "lottery-entry-missing-void": (lambda ds: ds.set_json(LOTTERY, {"lotteryList": [{"userId": 10}]}),
                                   "source_invalid_data", None),
    "users-name-wrong-type": (lambda ds: ds.set_json(USERS, {"items": [
        {"userId": 10, "name": 7, "username": "JAlex", "regDate": "2020-10-19"}]}), "source_invalid_data", None),
    "users-too-large": (lambda ds: ds.set_json(USERS, {"items": [
        {"userId": i, "name": "n" * 100, "username": f"u{i}", "regDate": "2020-01-01"} for i in range(1000)]}),
                        "source_too_large", None),
    "no-players-empty-lottery": (lambda ds: ds.set_json(LOTTERY, {"lotteryList": []}), "no_players", []),
    "no-players-unknown-users": (lambda ds: ds.set_json(LOTTERY, {"lotteryList": [{"userId": 999, "void": False}]}),
                                 "no_players", ["unknown_user"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_failing_source_fails_the_draw_once_then_recovers(launch, data_source, case):
    break_source, code, warning_codes = CASES[case]
    server = launch(fetch_connect_timeout_ms=500, fetch_timeout_ms=700, fetch_max_bytes=FETCH_MAX_BYTES)

    async def scenario():
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        try:
            await watcher.expect("snapshot")
            break_source(data_source)
            resp = http.start_draw(server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            await watcher.expect("loading", timeout=5)
            failed = await watcher.expect("failed", timeout=8)
            assert failed["code"] == code, failed.raw
            assert isinstance(failed["message"], str) and failed["message"], failed.raw
            assert isinstance(failed["warnings"], list)
            if warning_codes is not None:
                assert [w["code"] for w in failed["warnings"]] == warning_codes, failed.raw
            assert not await watcher.barrier(), "more than one message after the failure"
            state = http.request(server, "GET", "/api/rooms/lobby")
            assert state.status == 200 and state.json["draw"] is None, "room is not idle after a failed draw"

            # Fix the source: the very next draw works.
            if case == "refused":
                data_source.listen()
            data_source.reset()
            resp = http.start_draw(server, "lobby", server.lobby_key)
            assert resp.status == 202, f"room not startable after a failure: {resp.status} {resp.body}"
            seq = await watcher.collect_draw(timeout=10)
        finally:
            await close_all([watcher])
        assert [m.type for m in seq] == ["loading", "started"] + ["round"] * 10 + ["finished"], [m.raw[:100] for m in seq]
        draw.assert_verifies(seq[-1].data, seq[1].data, [m.data for m in seq[2:12]])

    run(scenario(), timeout=30)
