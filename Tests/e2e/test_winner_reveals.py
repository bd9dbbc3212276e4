"""One reveal per winner and redraws (issue 28, docs/FAIRNESS.md §5a and §5b) against the real
server: a 3-winner draw whose host advances from one winner to the next, as a v2 viewer sees it
(each winner's own flips, a `winner` message per reveal, `advance` when the host goes on) and as a v1
viewer that knows only `finished` still gets every winner; the room's snapshot between winners;
then a redraw of a removed winner recorded as a new draw linked to the first, which
tools/verify_draw.py verifies against the draw it redraws.
"""
import json
import subprocess
import sys

from helpers import http
from helpers.cli import REPO
from helpers.protocol import SUBPROTOCOL, SUBPROTOCOL_V1
from helpers.redis import wait_until
from helpers.rooms import put_entrants, put_settings, room_snapshot, wait_idle
from helpers.wsclient import WSClient, run

TOOL = [sys.executable, str(REPO / "tools" / "verify_draw.py")]
ROUNDS = 4


def _verify_by_id(server, draw_id: str) -> dict:
    done = subprocess.run(TOOL + ["--server", server.base_url, "--draw", draw_id],
                          capture_output=True, text=True, timeout=60)
    report = json.loads(done.stdout)
    assert done.returncode == (0 if report["ok"] else 1), done.stderr
    return report


def _room(server, name: str) -> str:
    key = http.created_room(server, name)["hostKey"]
    assert put_entrants(server, name, key, "\n".join(f"Guest {i}" for i in range(1, 13))).status == 200
    resp = put_settings(server, name, key, {"winners": 3, "rounds": ROUNDS, "intervalMs": 50, "countdownMs": 0})
    assert resp.status == 200, resp.body
    return key


def _post(server, path: str, key: str, body=None):
    return http.api(server, "POST", path, body=body if body is not None else {}, key=key)


def test_three_winners_revealed_one_by_one_as_the_host_advances_then_a_redraw(server):
    room = "reveal-each"
    key = _room(server, room)

    async def scenario():
        viewer = await WSClient.open(server.ws_url(room), name="v2", subprotocols=(SUBPROTOCOL,))
        old = await WSClient.open(server.ws_url(room), name="v1", subprotocols=(SUBPROTOCOL_V1,))
        try:
            await viewer.expect("snapshot")
            await old.expect("snapshot")
            status, body = _post(server, f"/api/rooms/{room}/draws", key, {"reveal": "host"})
            assert status == 202, body
            started, _ = await viewer.wait_for(lambda m: m.type == "started", timeout=10)
            assert started["winners"] == 3 and started["reveal"] == "each", started.raw
            revealed = []
            for slot in (1, 2, 3):
                if slot > 1:
                    # Nothing comes while the draw waits for the host: the pong is next.
                    assert [m.type for m in await viewer.barrier()] == []
                    snap = room_snapshot(server, room)["draw"]
                    assert snap["progress"]["awaitingHost"] is True and snap["progress"]["winner"] == slot - 1
                    assert [p["index"] for p in snap["progress"]["revealed"]] == [w["index"] for w in revealed]
                    status, body = _post(server, f"/api/rooms/{room}/draws/next", key)
                    assert status == 202 and body["status"] == "next", body
                    nxt = await viewer.expect("advance")
                    assert nxt["winner"] == slot
                flips = []
                while True:
                    msg = await viewer.next_non_presence(timeout=10)
                    if msg.type == "winner":
                        break
                    assert msg.type == "round", msg.raw
                    flips.append(msg)
                assert [(f["winner"], f["round"], f["of"]) for f in flips] == [(slot, r, ROUNDS) for r in range(1, ROUNDS + 1)]
                assert msg["winner"] == slot and msg["of"] == 3
                assert msg["index"] == flips[-1]["index"], "each winner's last flip shows it"
                assert msg["next"] == ("finished" if slot == 3 else "host")
                revealed.append(msg)
            finished = await viewer.expect("finished")
            assert [p["index"] for p in finished["winnerPicks"]] == [w["index"] for w in revealed]
            assert len({w["index"] for w in revealed}) == 3
            # A v1 client that knows only `finished` gets every winner from it.
            old_msgs = await old.collect_draw(timeout=10)
            assert [p["index"] for p in old_msgs[-1]["winnerPicks"]] == [w["index"] for w in revealed]
            return finished, revealed
        finally:
            await viewer.close()
            await old.close()

    finished, revealed = run(scenario(), timeout=60)
    status, body = _post(server, f"/api/rooms/{room}/draws/next", key)
    assert status == 409 and body["error"]["code"] == "no_winner_waiting"

    record = http.api(server, "GET", f"/api/draws/{finished['drawId']}")[1]
    assert record["reveal"] == "each" and len(record["rounds"]) == 3 * ROUNDS and record["verified"] is True
    report = _verify_by_id(server, finished["drawId"])
    assert report["ok"] and report["winnersOk"] and report["roundsChecked"] == 3 * ROUNDS, report

    # Winner 2 does not show up: the host removes them and draws a replacement.
    removed = revealed[1]
    loser = next(i for i in range(12) if i not in {w["index"] for w in revealed})
    status, body = _post(server, f"/api/rooms/{room}/redraws", key, {"drawId": finished["drawId"], "userId": loser + 1})
    assert status == 422 and body["error"]["code"] == "not_a_winner", body
    status, body = _post(server, f"/api/rooms/{room}/redraws", key, {"drawId": "0" * 32, "userId": removed["userId"]})
    assert status == 409 and body["error"]["code"] == "not_redrawable", body
    status, body = _post(server, f"/api/rooms/{room}/redraws", key,
                         {"drawId": finished["drawId"], "userId": removed["userId"]})
    assert status == 202, body
    last = wait_idle(server, room)["lastResult"]
    assert last["drawId"] != finished["drawId"]
    assert last["redrawOf"]["drawId"] == finished["drawId"]
    assert last["redrawOf"]["removed"]["userId"] == removed["userId"]
    assert [p["userId"] for p in last["redrawOf"]["kept"]] == [revealed[0]["userId"], revealed[2]["userId"]]
    redraw = http.api(server, "GET", f"/api/draws/{last['drawId']}")[1]
    assert redraw["entrantsHash"] != record["entrantsHash"] and redraw["commitment"] != record["commitment"]
    assert len(redraw["entrants"]) == 12 - 3
    assert not {p["userId"] for p in redraw["entrants"]} & {w["userId"] for w in revealed}
    report = _verify_by_id(server, last["drawId"])
    assert report["ok"] and report["redrawOk"] and report["redrawOf"] == finished["drawId"], report


def test_several_winners_run_on_by_default(server):
    room = "reveal-auto"
    key = _room(server, room)

    async def scenario():
        viewer = await WSClient.open(server.ws_url(room), name="v2", subprotocols=(SUBPROTOCOL,))
        try:
            await viewer.expect("snapshot")
            assert http.start_draw(server, room, key).status == 202
            msgs = await viewer.collect_draw(timeout=30)
            winners = [m for m in msgs if m.type == "winner"]
            assert [w["winner"] for w in winners] == [1, 2, 3]
            assert [w["next"] for w in winners] == ["auto", "auto", "finished"]
            # Winner 2's first flip comes no earlier than the pause announced with winner 1.
            first_of_2 = next(m for m in msgs if m.type == "round" and m["winner"] == 2)
            assert first_of_2["sentAt"] >= winners[0]["nextStartsAt"]
            assert sum(m.type == "round" for m in msgs) == 3 * ROUNDS
        finally:
            await viewer.close()

    run(scenario(), timeout=60)


def _next_result(server, room: str, after: str) -> dict:
    """The room's last result once it is another draw's than `after` (a redraw just accepted may
    not have shown `loading` yet) and the room is idle."""
    wait_until(lambda: (room_snapshot(server, room)["lastResult"] or {}).get("drawId") != after, 20, "the redraw's result")
    return wait_idle(server, room)["lastResult"]


def _standing_winner(last: dict) -> int:
    """The userId of the one winner a 1-winner draw's (or a redraw's) result names."""
    picks = [p for p in last.get("winnerPicks") or [] if not p.get("void")]
    return (last.get("winner") or picks[0])["userId"]


def test_redraws_of_a_giveaway_are_numbered_and_stop_at_the_operators_limit(launch):
    """Issue 37: a host redrew "no-shows" 7 times until the person it wanted won. With
    --max-redraws 2, the first two redraws of a giveaway run and carry `redrawOf.number` 1 and 2
    (in `started`, the snapshot and the record); the third is refused with 409 redraw_limit and
    nothing is recorded or shown; with --max-redraws 0 the first is refused."""
    server = launch(max_redraws=2, round_interval_ms=50)
    room = "redraw-limit"
    key = http.created_room(server, room)["hostKey"]
    assert put_entrants(server, room, key, "\n".join(f"Guest {i}" for i in range(1, 13))).status == 200
    assert put_settings(server, room, key, {"rounds": 2, "intervalMs": 50, "countdownMs": 0}).status == 200
    status, body = _post(server, f"/api/rooms/{room}/draws", key)
    assert status == 202, body
    last = wait_idle(server, room)["lastResult"]
    for number in (1, 2):
        status, body = _post(server, f"/api/rooms/{room}/redraws", key,
                             {"drawId": last["drawId"], "userId": _standing_winner(last)})
        assert status == 202, body
        previous, last = last, _next_result(server, room, last["drawId"])
        assert last["redrawOf"]["drawId"] == previous["drawId"] and last["redrawOf"]["number"] == number, last
        record = http.api(server, "GET", f"/api/draws/{last['drawId']}")[1]
        assert record["redrawOf"]["number"] == number, record["redrawOf"]
        report = _verify_by_id(server, last["drawId"])   # the number follows the base's, as the tool checks
        assert report["ok"] and report["redrawOk"], report
    drawn = http.api(server, "GET", f"/api/rooms/{room}/draws")[1]["draws"]
    assert len(drawn) == 3
    # The history's lines say which are redraws, of what, replacing whom (newest first).
    assert [(d.get("redrawOf") or {}).get("number") for d in drawn] == [2, 1, None]
    assert drawn[0]["redrawOf"]["drawId"] == drawn[1]["drawId"] and drawn[1]["redrawOf"]["drawId"] == drawn[2]["drawId"]
    assert drawn[1]["redrawOf"]["removed"]["userId"] == _standing_winner(drawn[2])

    status, body = _post(server, f"/api/rooms/{room}/redraws", key,
                         {"drawId": last["drawId"], "userId": _standing_winner(last)})
    assert (status, body["error"]["code"]) == (409, "redraw_limit"), body
    assert "every redraw this server allows" in body["error"]["message"]
    assert http.api(server, "GET", f"/api/rooms/{room}/draws")[1]["draws"] == drawn, "nothing recorded"
    assert room_snapshot(server, room)["lastResult"]["drawId"] == last["drawId"], "nothing shown"

    off = launch(max_redraws=0, round_interval_ms=50)
    key = http.created_room(off, room)["hostKey"]
    assert put_entrants(off, room, key, "\n".join(f"Guest {i}" for i in range(1, 13))).status == 200
    assert put_settings(off, room, key, {"rounds": 2, "intervalMs": 50, "countdownMs": 0}).status == 200
    assert _post(off, f"/api/rooms/{room}/draws", key)[0] == 202
    last = wait_idle(off, room)["lastResult"]
    status, body = _post(off, f"/api/rooms/{room}/redraws", key, {"drawId": last["drawId"], "userId": _standing_winner(last)})
    assert (status, body["error"]["code"]) == (409, "redraw_limit"), body
