"""tools/verify_draw.py against the shared fairness vectors (Tests/vectors/fairness.json): the same
file the Swift core and the browser verifier are tested against, so the three cannot drift."""
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = json.loads((REPO / "Tests" / "vectors" / "fairness.json").read_text(encoding="utf-8"))
TOOL = REPO / "tools" / "verify_draw.py"

_spec = importlib.util.spec_from_file_location("verify_draw", TOOL)
verify_draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_draw)


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_case_inputs_give_the_expected_plan(case):
    e = case["expected"]
    seed = bytes.fromhex(case["seed"])
    assert verify_draw.canonical_entrants(case["entrants"]).decode("utf-8") == e["canonicalEntrants"]
    rep = verify_draw.verify(case["drawId"], case["seed"], case["entrants"], case["rounds"],
                             e["commitment"], e["entrantsHash"], e["picks"], case.get("winners"),
                             case.get("reveal") == "each")
    assert rep["picks"] == e["picks"]
    assert rep.get("winnerPicks") == e.get("winnerPicks")
    assert rep["commitmentOk"] and rep["entrantsHashOk"] and rep["roundsOk"]
    assert hashlib.sha256(seed).hexdigest() == e["commitment"]
    assert rep["outcome"] == e["outcome"]
    assert rep["drawn"] == case["entrants"][e["drawnIndex"]]


@pytest.mark.parametrize("pick", VECTORS["picks"], ids=lambda p: f"{p['drawId']}:{p['round']}")
def test_rejection_sampling_picks(pick):
    assert verify_draw.pick_index(bytes.fromhex(pick["seed"]), pick["drawId"], pick["round"], pick["count"]) == pick["index"]


def test_vectors_cover_the_second_hmac_block():
    assert any(p["block1"] for p in VECTORS["picks"]), "no vector needs block 1 of the rejection sampling"


@pytest.mark.parametrize("entry", VECTORS["records"], ids=lambda r: r["name"])
def test_record_verdicts(entry, tmp_path):
    """The command line as a user runs it: exit code and report agree with the vector's verdict."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(entry["record"], ensure_ascii=False), encoding="utf-8")
    run = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True, timeout=60)
    report = json.loads(run.stdout)
    verdict = entry["verdict"]
    assert report["ok"] is verdict["ok"]
    assert run.returncode == (0 if verdict["ok"] else 1)
    assert report["outcome"] == verdict["outcome"]
    assert report["roundsChecked"] == verdict["roundsChecked"]
    # A one-winner draw's report keeps its old shape; a k-winner one lists the recomputed slots.
    assert report.get("winnerPicks", "absent") == verdict.get("winnerPicks", "absent")


def test_vectors_cover_several_winners():
    """k = 2 and 3, k = number of entrants, void entries among the slots and none."""
    with_k = [c for c in VECTORS["cases"] if c.get("winners", 1) > 1]
    assert {2, 3} <= {c["winners"] for c in with_k}
    assert any(c["winners"] == len(c["entrants"]) for c in with_k)
    void_in = [any(c["entrants"][i]["void"] for i in c["expected"]["winnerPicks"]) for c in with_k]
    assert any(void_in) and not all(void_in)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10])
def test_winner_slots_are_distinct_and_slot_1_is_the_last_round(n):
    seed = bytes(range(32))
    for rounds in (1, 5):
        last = verify_draw.pick_index(seed, "k", rounds, n)
        for k in range(1, n + 1):
            slots = verify_draw.winner_picks(seed, "k", rounds, n, k)
            assert slots[0] == last and len(set(slots)) == k
            assert slots == verify_draw.winner_picks(seed, "k", rounds, n, n)[:k]  # more winners only add slots


@pytest.mark.parametrize("entry", VECTORS["redraws"], ids=lambda r: r["name"])
def test_redraw_verdicts(entry):
    """A redraw (FAIRNESS.md §5b) verifies like any draw, and its entrants are exactly the base
    draw's without every slot's entry: checked against the base record the vector names."""
    base = next(r["record"] for r in VECTORS["records"] if r["name"] == entry["base"])
    report = verify_draw.verify_document(entry["record"], base)
    verdict = entry["verdict"]
    assert report["ok"] is verdict["ok"] and report["redrawOk"] is verdict["redrawOk"]
    assert report["outcome"] == verdict["outcome"] and report["roundsChecked"] == verdict["roundsChecked"]


def test_vectors_cover_each_winner_and_redraws():
    """Flips per winner (finished, tampered, stopped) and redraws (honest and not)."""
    each = [r for r in VECTORS["records"] if r["record"].get("reveal") == "each"]
    assert any(r["verdict"]["ok"] for r in each) and any(not r["verdict"]["ok"] for r in each)
    assert any(r["record"]["status"] == "aborted" for r in each)
    assert {r["verdict"]["redrawOk"] for r in VECTORS["redraws"]} == {True, False}


def test_a_redraw_without_its_base_does_not_verify():
    entry = next(r for r in VECTORS["redraws"] if r["verdict"]["ok"])
    assert verify_draw.verify_document(entry["record"])["ok"] is False


# drand quicknet's real round 3 (https://api.drand.sh/52db9ba7…e971/public/3), whose values the
# beacon/ records use, so the BLS check runs on a signature the League of Entropy made.
QUICKNET_ROUND_3 = {"chain": verify_draw.QUICKNET, "round": 3,
                    "signature": "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64"}


def test_beacon_key_is_hmac_of_the_seed_and_the_randomness():
    randomness = hashlib.sha256(bytes.fromhex(QUICKNET_ROUND_3["signature"])).digest()
    assert randomness.hex() == "7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21"
    key = verify_draw.beacon_key(bytes(range(32)), randomness)
    assert key.hex() == "6eeb88755b9a3389980d662b4783b17c8f3bfe85103710d526c909d53f6010bd"


def test_bls_signature_of_a_real_quicknet_round():
    pytest.importorskip("py_ecc")
    assert verify_draw.check_signature(QUICKNET_ROUND_3) == "valid"
    assert verify_draw.check_signature({**QUICKNET_ROUND_3, "round": 4}) == "invalid", "another round's message"
    assert verify_draw.check_signature({**QUICKNET_ROUND_3, "signature": "00" * 48}) == "invalid"
    assert verify_draw.check_signature({**QUICKNET_ROUND_3, "round": 2 ** 64}) == "invalid"
    other = {**QUICKNET_ROUND_3, "chain": "ab" * 32}
    assert verify_draw.check_signature(other).startswith("not checked")
    assert verify_draw.check_signature(other, verify_draw.QUICKNET_KEY) == "valid"


def test_without_py_ecc_the_signature_is_reported_unchecked(monkeypatch):
    monkeypatch.setitem(sys.modules, "py_ecc", None)  # an import of it now fails, as when not installed
    monkeypatch.setitem(sys.modules, "py_ecc.bls.hash_to_curve", None)
    assert verify_draw.check_signature(QUICKNET_ROUND_3).startswith("not checked: install py_ecc")


def test_a_scheduled_draw_is_checked_against_the_commitment_published_at_scheduling():
    """docs/FAIRNESS.md section 10.1: same id, hashes, winners, scheduling time, a start no earlier
    than its time, and the beacon round it named (or none)."""
    chain = "ab" * 32
    beacon = {"chain": chain, "round": 42, "at": 12_000}
    scheduled = {"drawId": "d" * 32, "at": 10_000, "scheduledAt": 1_000, "commitment": "c" * 64,
                 "entrantsHash": "e" * 64, "winners": 1, "beacon": beacon}
    record = {"drawId": "d" * 32, "createdAt": 1_000, "startedAt": 10_005, "commitment": "c" * 64,
              "entrantsHash": "e" * 64, "winners": 1, "roundsShown": 10,
              "beacon": {**beacon, "randomness": "11" * 32, "signature": "22" * 48}}
    check = verify_draw.check_scheduled
    assert check(record, scheduled) == {"scheduledOk": True, "scheduledRound": 42}
    assert not check({**record, "beacon": {**record["beacon"], "round": 43}}, scheduled)["scheduledOk"]
    assert not check({k: v for k, v in record.items() if k != "beacon"}, scheduled)["scheduledOk"], "the round dropped"
    assert not check(record, {k: v for k, v in scheduled.items() if k != "beacon"})["scheduledOk"], "a round added"
    assert not check({**record, "startedAt": 9_999}, scheduled)["scheduledOk"], "started before its time"
    assert check({**record, "startedAt": 5_000, "roundsShown": 0}, scheduled)["scheduledOk"], "cancelled before it"
    assert not check({**record, "createdAt": 2_000}, scheduled)["scheduledOk"]
    assert not check({**record, "entrantsHash": "f" * 64}, scheduled)["scheduledOk"]


@pytest.mark.parametrize("randomness", ["zz" * 32, "11" * 31, "11" * 33, 42])
def test_a_beacon_record_with_randomness_that_is_not_32_bytes_of_hex_is_reported_not_raised(randomness):
    """A record is a peer's document: a bad beacon value fails the report instead of crashing it."""
    entrants = [{"userId": 1, "name": "a", "username": "a", "regDate": "2020-01-01", "void": False}]
    record = {"drawId": "d", "seed": "00" * 32, "entrants": entrants, "rounds": [], "status": "finished",
              "startedAt": 1, "beacon": {"chain": "a" * 64, "round": 3, "at": 5, "randomness": randomness,
                                         "signature": "00"}}
    report = verify_draw.verify_document(record)
    assert report["beaconOk"] is False and report["ok"] is False, report


@pytest.mark.parametrize("seed", ["zz" * 32, "0" * 63, "00" * 31, "00" * 33, 42, ["00"]])
def test_a_record_whose_seed_is_not_hex_is_reported_not_raised(seed, tmp_path):
    """A record is a peer's document: a seed that is not 32 bytes of hex (or not a string) fails the
    report with a message saying so, as the page's verifier does, on the command line as in the library, instead of a traceback."""
    entrants = [{"userId": 1, "name": "a", "username": "a", "regDate": "2020-01-01", "void": False}]
    record = {"drawId": "d", "seed": seed, "entrants": entrants, "rounds": [], "status": "finished"}
    report = verify_draw.verify_document(record)
    assert report["seedOk"] is False and report["ok"] is False, report
    assert "seed is not 32 bytes of hex" in report["error"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    run = subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    assert json.loads(run.stdout)["seedOk"] is False
