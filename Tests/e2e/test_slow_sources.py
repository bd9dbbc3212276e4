"""A slow player-list source delays only the draws that wait for it (issue 11, finding 5).

The lists used to be fetched on four blocking threads, in order: eight rooms whose users list was
slow held all four, and another room's draw waited behind them for the whole fetch timeout. Now
every fetch runs side by side on libcurl's multi interface.
"""
import time

from helpers import draw, http
from helpers.datasource import USERS
from helpers.wsclient import WSClient, close_all, run

SLOW_ROOMS = 8
DRAW = ["round"] * 10 + ["finished"]


def wait_for_hits(data_source, name: str, count: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while data_source.hits[name] < count:
        assert time.monotonic() < deadline, \
            f"only {data_source.hits[name]} of {count} requests for {name} reached the source"
        time.sleep(0.01)


def test_a_slow_source_in_eight_rooms_does_not_delay_another_rooms_draw(launch, data_source):
    server = launch()
    rooms = []
    for i in range(SLOW_ROOMS):
        created = http.create_room(server, f"slow-{i}")
        assert created.status == 201, created.body
        rooms.append((f"slow-{i}", created.json["hostKey"]))
    # The users list answers these eight draws only when the test says so; later requests at once.
    data_source.hold_next(USERS, SLOW_ROOMS)

    async def scenario():
        watchers = [await WSClient.open(server.ws_url(name), name=name) for name, _ in rooms]
        lobby = await WSClient.open(server.ws_url("lobby"), name="lobby")
        try:
            for w in watchers + [lobby]:
                await w.expect("snapshot")
            for name, key in rooms:
                assert http.start_draw(server, name, key).status == 202
            # All eight fetches are in flight at the source, held there.
            wait_for_hits(data_source, USERS, SLOW_ROOMS)
            assert http.start_draw(server, "lobby", server.lobby_key).status == 202
            # The lobby's draw runs to its end while the eight are still held (they wait for
            # release() below, up to the source's 30 s limit; the fetch timeout is 15 s).
            lobby_draw = await lobby.collect_draw(timeout=10)
            for w in watchers:
                state = http.request(server, "GET", f"/api/rooms/{w.name}")
                assert state.json["draw"] == {"phase": "loading"}, (w.name, state.json)
            data_source.release()
            slow_draws = [await w.collect_draw(timeout=10) for w in watchers]
            return lobby_draw, slow_draws
        finally:
            data_source.release()
            await close_all(watchers + [lobby])

    lobby_draw, slow_draws = run(scenario(), timeout=60)
    assert [m.type for m in lobby_draw] == ["loading", "started"] + DRAW, [m.type for m in lobby_draw]
    draw.assert_verifies(lobby_draw[-1].data, lobby_draw[1].data, [m.data for m in lobby_draw[2:12]])
    for seq in slow_draws:
        assert [m.type for m in seq] == ["loading", "started"] + DRAW, [m.type for m in seq]
