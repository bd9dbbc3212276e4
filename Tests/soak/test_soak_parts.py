"""The soak's own pure parts, without a cluster (seconds): what a viewer keeps of a message, and
the findings about scheduled draws. The soak itself is test_soak.py (SOAK_MINUTES)."""
from types import SimpleNamespace

from soak import scheduled_findings
from viewers import compact


def test_compact_replaces_every_entrant_list_by_its_length_and_keeps_the_rest():
    msg = {"type": "snapshot", "draw": {"drawId": "d", "phase": "running", "entrants": [{"userId": 1}] * 3,
                                        "rounds": [{"round": 1, "index": 2}]},
           "lastResult": {"drawId": "e", "entrants": [{"userId": 1}] * 5, "picks": [0, 4]}}
    out = compact(msg)
    assert out["draw"] == {"drawId": "d", "phase": "running", "entrantCount": 3, "rounds": [{"round": 1, "index": 2}]}
    assert out["lastResult"] == {"drawId": "e", "entrantCount": 5, "picks": [0, 4]}
    assert compact({"type": "started", "drawId": "d", "entrants": []}) == {"type": "started", "drawId": "d",
                                                                          "entrantCount": 0}


def _history(draws: dict) -> dict:
    """One node's history holding `draws` (drawId -> (status, abortReason))."""
    return {"listing": [{"drawId": x, "status": st} for x, (st, _) in draws.items()],
            "records": {x: {"status": 200, "body": {"drawId": x, "status": st, "abortReason": why}}
                        for x, (st, why) in draws.items()}}


def test_every_scheduled_draw_must_be_recorded_and_ended_as_the_host_left_it():
    room = SimpleNamespace(scheduled={"ran": {"cancelled": False}, "gone": {"cancelled": True}})
    good = _history({"ran": ("finished", None), "gone": ("aborted", "cancelled")})
    assert scheduled_findings(room, {"n0": good, "n1": good}) == []
    bad = {"n0": _history({"ran": ("scheduled", None), "gone": ("finished", None)}),
           "n1": _history({"ran": ("aborted", "missed")}),
           "n2": _history({"gone": ("aborted", "cancelled")})}
    found = scheduled_findings(room, bad)
    assert "node n0: scheduled draw ran is still `scheduled` after settling" in found
    assert "node n0: cancelled draw gone is recorded `finished`/None" in found
    assert "node n1: scheduled draw ran was never run: `aborted`/missed" in found
    assert "node n1: scheduled draw gone is missing from the history" in found
    assert "node n2: scheduled draw ran is missing from the history" in found
    assert len(found) == 5


def test_a_minutes_rss_is_the_median_of_the_readings_the_node_was_up_for():
    from gauges import median_kib
    assert median_kib([100, 300, 200]) == 200
    assert median_kib([None, 90, 110, None]) == 110, "readings while it was down do not count"
    assert median_kib([None, None]) is None
