"""A beacon draw in the page (issue 30, docs/FAIRNESS.md section 9): the countdown waits for the
drand round, and the verify panel recomputes the picks from the seed and the round's randomness,
links the round on a public relay, and catches a tampered randomness or entrant list. The beacon
is the test suite's fake relay (Tests/e2e/helpers/fakedrand.py)."""
import json

from helpers.fakedrand import CHAIN_HASH, drand  # noqa: F401 (a fixture)
from helpers.http import api

from .test_verify import paste_and_verify

# verifyRecord with the round this page saw named live in `started`.
WITH_ANNOUNCED_ROUND = """
const [record, round, done] = arguments;
import('/js/verify.js').then(async (v) => {
  const report = await v.verifyRecord(record, {announcedBeaconRound: round});
  done(report.items.find((it) => it.id === 'announced-beacon')?.ok ?? null);
}, (e) => done(String(e)));
"""


def test_a_beacon_draw_verifies_in_the_page_and_tampering_is_caught(server_factory, open_page, drand):
    server = server_factory(beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=1000)
    host = open_page("lobby", server.lobby_key, server=server)
    host.el("start-button").click()
    # The wait for round R is the countdown's: a number of seconds under the words naming the round.
    host.wait(lambda d: host.text("round-counter").startswith("Waiting for beacon round")
              and host.visible("countdown") and host.text("countdown").isdigit(), "the beacon's countdown")
    host.wait_phase("result")
    assert host.verify_status() == "ok"
    items = host.verify_items()
    assert set(items) == {"beacon", "commitment", "announced", "announced-beacon", "entrants", "outcome",
                          *(f"round-{r}" for r in range(1, 11))}
    assert all(items.values())
    status, snapshot = api(server, "GET", "/api/rooms/lobby")
    assert status == 200
    result = snapshot["lastResult"]
    r = result["beacon"]["round"]
    link = host.driver.execute_script(
        "return document.querySelector('[data-testid=\"verify-items\"] li[data-item=\"beacon\"] a').href")
    assert link == f"https://api.drand.sh/{CHAIN_HASH}/public/{r}"

    status, record = api(server, "GET", f"/api/draws/{result['drawId']}")
    assert status == 200 and record["beacon"]["randomness"] == result["beacon"]["randomness"]
    assert paste_and_verify(host, json.dumps(record)) == "ok"
    forged = {**record, "beacon": {**record["beacon"], "randomness": "00" * 32}}
    assert paste_and_verify(host, json.dumps(forged)) == "mismatch"
    assert host.verify_items()["beacon"] is False
    swapped = {**record, "entrants": list(reversed(record["entrants"]))}
    assert paste_and_verify(host, json.dumps(swapped)) == "mismatch"
    assert host.verify_items()["entrants"] is False
    # A record naming another round than the one announced live is caught by the page that watched.
    assert host.driver.execute_async_script(WITH_ANNOUNCED_ROUND, record, r) is True
    assert host.driver.execute_async_script(WITH_ANNOUNCED_ROUND, record, r - 1) is False


def test_a_scheduled_beacon_draw_shows_its_round_when_scheduled_and_verifies_in_the_page(server_factory, open_page, drand):
    """FAIRNESS.md §10.1: the round is on the schedule's stage from the scheduling on, and the draw
    that runs at its time waits for that round and verifies on the page that watched it."""
    import time
    from datetime import datetime, timezone
    server = server_factory(beacon_url=drand.url, beacon_chain=CHAIN_HASH, beacon_margin_ms=1000,
                            round_interval_ms=100, countdown_ms=0)
    viewer = open_page("lobby", server=server)
    at = datetime.fromtimestamp(time.time() + 4, tz=timezone.utc).isoformat(timespec="milliseconds")
    status, scheduled = api(server, "PUT", "/api/rooms/lobby/schedule", body={"at": at}, key=server.lobby_key)
    assert status == 201, scheduled
    r = scheduled["beacon"]["round"]
    viewer.wait(lambda d: f"beacon round {r}" in viewer.text("scheduled-proof"), "the committed round on the stage")
    viewer.wait_phase("result", timeout=30)
    assert viewer.verify_status() == "ok"
    assert viewer.verify_items()["announced-beacon"] is True, "the round started named is the one scheduled"
    status, record = api(server, "GET", f"/api/draws/{scheduled['drawId']}")
    assert record["beacon"]["round"] == r and record["createdAt"] == scheduled["scheduledAt"], record
