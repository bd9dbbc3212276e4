"""Per-room settings (issue 15): the host sets rounds, pace, countdown and winners within the
operator's limits; the room's next draw follows them, its snapshot shows them, and a draw with
`winners: 3` reveals three distinct winners that tools/verify_draw.py verifies from the record
the server serves (docs/FAIRNESS.md section 5). A one-winner record, whose shape is what it was
before several winners existed, still verifies.
"""
import json
import subprocess
import sys

from helpers import http
from helpers.cli import REPO
from helpers.rooms import put_entrants, put_settings, room_snapshot, run_draw

VERIFY = [sys.executable, str(REPO / "tools" / "verify_draw.py"), "-"]


def _verify(record: dict) -> dict:
    done = subprocess.run(VERIFY, input=json.dumps(record), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_three_winners_distinct_and_verified_by_the_tool(launch):
    srv = launch(countdown_ms=0)
    key = http.created_room(srv, "three")["hostKey"]
    assert put_entrants(srv, "three", key, "\n".join(f"Person {i}" for i in range(1, 21))).status == 200
    resp = put_settings(srv, "three", key, {"winners": 3, "rounds": 5, "intervalMs": 60})
    assert resp.status == 200, resp.body
    assert resp.json["settings"] == {"rounds": 5, "intervalMs": 60, "decelerateToMs": None, "winners": 3,
                                     "countdownMs": 0, "title": None, "prize": None}
    assert room_snapshot(srv, "three")["settings"]["winners"] == 3

    record = run_draw(srv, "three", key)
    assert record["status"] == "finished" and record["winners"] == 3, record
    picks = record["winnerPicks"]
    assert len(picks) == 3 and len({p["index"] for p in picks}) == 3, picks
    # Each winner is revealed with its own 5 flips (FAIRNESS.md §5a): winner s's last flip is slot s.
    assert record["reveal"] == "each" and len(record["rounds"]) == 15 and record["schedule"]["rounds"] == 5
    assert [record["rounds"][5 * s - 1]["index"] for s in (1, 2, 3)] == [p["index"] for p in picks]
    report = _verify(record)
    assert report["ok"] and report["winnersOk"], report
    # The finished result the room keeps (snapshot's lastResult) carries the same slots.
    last = room_snapshot(srv, "three")["lastResult"]
    assert [p["index"] for p in last["winnerPicks"]] == [p["index"] for p in picks]


def test_a_one_winner_record_keeps_its_old_shape_and_verifies(server):
    record = run_draw(server, "lobby", server.lobby_key)
    assert record["status"] == "finished"
    assert "winners" not in record and "winnerPicks" not in record, sorted(record)
    assert _verify(record)["ok"]


def test_settings_within_the_operators_limits(launch):
    srv = launch(max_winners=4, max_rounds=6, min_interval_ms=20, max_interval_ms=500)
    key = http.created_room(srv, "limited")["hostKey"]
    bad = [({"winners": 5}, "4"), ({"winners": 0}, "winners"), ({"rounds": 7}, "6"), ({"intervalMs": 19}, "20"),
           ({"decelerateToMs": 501}, "500"), ({"countdownMs": -1}, "countdownMs"), ({"winners": 2.5}, "winners"),
           ({"winner": 2}, "winner"), ({"rounds": "3"}, "rounds")]
    for body, named in bad:
        resp = put_settings(srv, "limited", key, body)
        assert resp.status == 422 and resp.error_code() == "invalid_settings", (body, resp.body)
        assert named in resp.json["error"]["message"], resp.json
    assert put_settings(srv, "limited", key, "[]").error_code() == "bad_json"
    assert put_settings(srv, "limited", "0" * 48, {"winners": 2}).error_code() == "forbidden"
    assert put_settings(srv, "lobby", srv.lobby_key, {"winners": 2}).error_code() == "forbidden"
    # Nothing was kept: the operator's values are still in effect.
    assert room_snapshot(srv, "limited")["settings"]["winners"] == 1
    resp = put_settings(srv, "limited", key, {"winners": 4, "rounds": 6, "intervalMs": 20, "decelerateToMs": 500})
    assert resp.status == 200, resp.body
    assert resp.json["settings"]["decelerateToMs"] == 500


def test_more_winners_than_entrants_fails_the_draw_with_a_clear_code(launch):
    srv = launch(countdown_ms=0)
    key = http.created_room(srv, "few")["hostKey"]
    assert put_entrants(srv, "few", key, "Ann\nBob").status == 200
    assert put_settings(srv, "few", key, {"winners": 3}).status == 200
    record = run_draw(srv, "few", key)
    assert record["status"] == "failed" and record["failure"]["code"] == "too_few_entrants", record
