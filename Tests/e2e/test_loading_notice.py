"""`--loading-notice-ms`: a room holds `loading` back and drops it when the draw starts sooner.

PROTOCOL.md `loading`: sent only when the players take longer than the notice time; the room's
state (`GET /api/rooms/ROOM`, a joiner's snapshot) says `loading` from the host's start.
Why it exists (issue 7): with thousands watching, a `loading` fan-out right before `started`
delays `started` and round 1 for the last viewers.
"""
from helpers import draw, http
from helpers.datasource import USERS
from helpers.wsclient import WSClient, close_all, run

DRAW = ["round"] * 10 + ["finished"]


def test_a_quick_load_goes_straight_to_started(launch):
    # Far longer than the local source needs, so the outcome cannot depend on the machine's speed.
    server = launch(loading_notice_ms=5000)

    async def scenario():
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        try:
            await watcher.expect("snapshot")
            resp = http.start_draw(server, "lobby", server.lobby_key)
            assert resp.status == 202 and resp.json["status"] == "loading", resp.body
            return await watcher.collect_draw(timeout=10)
        finally:
            await close_all([watcher])

    seq = run(scenario(), timeout=20)
    assert [m.type for m in seq] == ["started"] + DRAW, [m.type for m in seq]
    draw.assert_verifies(seq[-1].data, seq[0].data, [m.data for m in seq[1:11]])


def test_a_slow_load_is_announced_and_the_state_says_loading_meanwhile(launch, data_source):
    server = launch(loading_notice_ms=100)
    data_source.hold(USERS)  # the players arrive only after `loading` did: only the timer can send it

    async def scenario():
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        try:
            await watcher.expect("snapshot")
            resp = http.start_draw(server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            # The state says loading at once, before any `loading` was broadcast.
            state = http.request(server, "GET", "/api/rooms/lobby")
            assert state.json["draw"] == {"phase": "loading"}, state.json
            joiner = await WSClient.open(server.ws_url("lobby"), name="joiner")
            snap = await joiner.expect("snapshot")
            assert snap["draw"] == {"phase": "loading"}, snap.raw
            loading = await watcher.expect("loading", timeout=5)
            assert loading["room"] == "lobby"
            data_source.release()
            seq = await watcher.collect_draw(timeout=10)
            await close_all([joiner])
            return seq
        finally:
            data_source.release()
            await close_all([watcher])

    seq = run(scenario(), timeout=25)
    assert [m.type for m in seq] == ["started"] + DRAW, [m.type for m in seq]

