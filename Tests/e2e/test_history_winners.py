"""Every winner in the record a room keeps (issue 28, item 5): a three-winner draw's history line
(PROTOCOL.md §5.1) carries `winners` and `winnerPicks` as its record does (§5.2), a one-winner
line keeps its old shape, and after a restart the room's restored last result still has its three
winners (it came back as a one-winner result before: "Last result" named only the first).
"""
from helpers import http
from helpers.rooms import put_entrants, put_settings, room_snapshot, run_draw


def _three_winner_room(srv, room):
    key = http.created_room(srv, room)["hostKey"]
    assert put_entrants(srv, room, key, "\n".join(f"Person {i}" for i in range(1, 41))).status == 200
    assert put_settings(srv, room, key, {"winners": 3, "rounds": 4, "intervalMs": 50}).status == 200
    return key


def _lines(srv, room):
    status, page = http.api(srv, "GET", f"/api/rooms/{room}/draws")
    assert status == 200, page
    return page["draws"]


def test_a_history_line_names_every_winner_and_survives_a_restart(launch, tmp_path):
    data_dir = str(tmp_path / "data")
    srv = launch(countdown_ms=0, data_dir=data_dir)
    key = _three_winner_room(srv, "three")
    record = run_draw(srv, "three", key)
    assert record["status"] == "finished" and record["winners"] == 3, record

    line = _lines(srv, "three")[0]
    assert line["drawId"] == record["drawId"]
    assert line["winners"] == 3
    assert line["winnerPicks"] == record["winnerPicks"]  # same slots, same players, same order
    assert "seed" not in line

    # One winner: the line reads as it always did.
    put_settings(srv, "three", key, {"winners": 1})
    run_draw(srv, "three", key)
    one = _lines(srv, "three")[0]
    assert "winners" not in one and "winnerPicks" not in one, sorted(one)
    put_settings(srv, "three", key, {"winners": 3})
    again = run_draw(srv, "three", key)
    srv.stop()

    # After a restart the room comes back from the store with its last result whole.
    back = launch(countdown_ms=0, data_dir=data_dir)
    last = room_snapshot(back, "three")["lastResult"]
    assert last["drawId"] == again["drawId"]
    assert last["winners"] == 3
    assert [p["index"] for p in last["winnerPicks"]] == [p["index"] for p in again["winnerPicks"]]
    lines = _lines(back, "three")
    assert [d["winnerPicks"] for d in lines if "winnerPicks" in d] == [again["winnerPicks"], record["winnerPicks"]]
