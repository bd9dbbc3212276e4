"""The verify panel: every pick recomputed in the browser with WebCrypto, and tampering caught."""
import importlib.util
import json

from helpers.http import api, created_room

from .browser_harness.paths import REPO

_spec = importlib.util.spec_from_file_location("verify_draw", REPO / "tools" / "verify_draw.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)  # the independent Python implementation of FAIRNESS.md

# docs/FAIRNESS.md's worked example.
EXAMPLE = {
    "drawId": "00112233445566778899aabbccddeeff",
    "seed": bytes(range(32)).hex(),
    "commitment": "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    "entrantsHash": "f150c8a68934acd5919016c321349010d893a4069c790a19faf8ff4548e506b2",
    "entrants": [
        {"userId": 10, "name": "Jack Alexy", "username": "JAlex", "regDate": "2020-10-19", "void": False},
        {"userId": 22, "name": "Mr. Hashemi", "username": "Hashaaa", "regDate": "2019-08-19", "void": False},
        {"userId": 4, "name": "Mack", "username": "mackMack13", "regDate": "2018-10-02", "void": False},
        {"userId": 182, "name": "Mohsen", "username": "AghaMohsen", "regDate": "2020-04-12", "void": True},
    ],
    "picks": [3, 0, 2, 1, 2, 3, 0, 0, 2, 2],
    "rounds": 10,
    "outcome": "winner",
}
EXAMPLE["drawn"] = EXAMPLE["winner"] = EXAMPLE["entrants"][2]

RUN_MODULE = """
const [record, done] = arguments;
import('/js/verify.js').then(async (v) => {
  const seed = v.hexToBytes(record.seed);
  done({
    picks: await v.computePicks(seed, record.drawId, record.entrants.length, 10),
    commitment: await v.sha256Hex(seed),
    entrantsHash: await v.sha256Hex(new TextEncoder().encode(v.canonicalEntrants(record.entrants))),
    report: await v.verifyRecord(record),
  });
}, (e) => done({error: String(e)}));
"""


PICKS_FOR = """
const [seedHex, drawId, n, rounds, done] = arguments;
import('/js/verify.js').then(async (v) => done(await v.computePicks(v.hexToBytes(seedHex), drawId, n, rounds)),
                             (e) => done(String(e)));
"""


VECTORS = json.loads((REPO / "Tests" / "vectors" / "fairness.json").read_text(encoding="utf-8"))

RUN_VECTORS = """
const [vectors, done] = arguments;
import('/js/verify.js').then(async (v) => {
  const cases = [];
  for (const c of vectors.cases) {
    const seed = v.hexToBytes(c.seed);
    cases.push({
      picks: c.reveal === 'each' ? await v.computeEachWinnerPicks(seed, c.drawId, c.entrants.length, c.rounds, c.winners)
        : await v.computePicks(seed, c.drawId, c.entrants.length, c.rounds),
      commitment: await v.sha256Hex(seed),
      canonical: v.canonicalEntrants(c.entrants),
      entrantsHash: await v.sha256Hex(new TextEncoder().encode(v.canonicalEntrants(c.entrants))),
      winnerPicks: c.winners ? await v.computeWinnerPicks(seed, c.drawId, c.entrants.length, c.rounds, c.winners) : null,
    });
  }
  const picks = [];
  for (const p of vectors.picks) picks.push((await v.computePicks(v.hexToBytes(p.seed), p.drawId, p.count, p.round))[p.round - 1]);
  const records = [];
  for (const r of vectors.records) {
    const report = await v.verifyRecord(r.record);
    records.push({ok: report.ok, ids: report.items.map((it) => it.id)});
  }
  const redraws = [];
  for (const r of vectors.redraws) {
    const base = vectors.records.find((b) => b.name === r.base).record;
    const report = await v.verifyRecord(r.record, {base});
    redraws.push({ok: report.ok, redraw: report.items.find((it) => it.id === 'redraw')?.ok});
  }
  done({cases, picks, records, redraws});
}, (e) => done({error: String(e)}));
"""


def needs_second_block(seed, draw_id, r, n):
    """True when all eight words of block 0 are rejected, so block 1 decides."""
    limit = (2 ** 32 // n) * n
    mac = reference.hmac.new(seed, f"{draw_id}:{r}".encode(), reference.hashlib.sha256).digest()
    return all(int.from_bytes(mac[i:i + 4], "big") >= limit for i in range(0, 32, 4))


def tampered(record, **changes):
    return json.dumps({**record, **changes})


def paste_and_verify(page, text):
    if not page.visible("verify-input"):
        page.driver.find_element("css selector", "#verify-other summary").click()
    field = page.el("verify-input")
    field.clear()
    page.driver.execute_script("arguments[0].value = arguments[1]", field, text)  # send_keys is slow on 4 KB
    page.el("verify-input-button").click()
    return page.verify_status()


def test_worked_example_recomputes_in_the_browser(open_page):
    page = open_page()
    out = page.driver.execute_async_script(RUN_MODULE, EXAMPLE)
    assert "error" not in out, out
    assert out["picks"] == EXAMPLE["picks"]
    assert out["commitment"] == EXAMPLE["commitment"]
    assert out["entrantsHash"] == EXAMPLE["entrantsHash"]
    assert out["report"]["ok"] is True
    assert len(out["report"]["items"]) == 2 + 10 + 1


def test_rejection_sampling_agrees_with_the_python_reference(open_page):
    """Rejections never happen with 4 entrants, so odd and huge n are compared round by round;
    with n just over 2^31 half the words are rejected and some rounds need a second block."""
    page = open_page()
    seed, draw_id, rounds = bytes(range(32)), EXAMPLE["drawId"], 600
    for n in (3, 5, 7, 2 ** 31 + 1):
        expected = [reference.pick_index(seed, draw_id, r, n) for r in range(1, rounds + 1)]
        assert page.driver.execute_async_script(PICKS_FOR, seed.hex(), draw_id, n, rounds) == expected, n
    assert any(needs_second_block(seed, draw_id, r, 2 ** 31 + 1) for r in range(1, rounds + 1))


def test_shared_vectors_agree(open_page):
    """Tests/vectors/fairness.json, which the Swift core and tools/verify_draw.py are tested
    against too: the same plans, and the same verdict on every stored record (finished, void,
    aborted and interrupted draws, and tampered ones)."""
    page = open_page()
    out = page.driver.execute_async_script(RUN_VECTORS, VECTORS)
    assert "error" not in out, out
    for case, got in zip(VECTORS["cases"], out["cases"]):
        e = case["expected"]
        assert got == {"picks": e["picks"], "commitment": e["commitment"], "canonical": e["canonicalEntrants"],
                       "entrantsHash": e["entrantsHash"], "winnerPicks": e.get("winnerPicks")}, case["name"]
    assert out["picks"] == [p["index"] for p in VECTORS["picks"]]
    for entry, got in zip(VECTORS["records"], out["records"]):
        verdict = entry["verdict"]
        assert got["ok"] is verdict["ok"], entry["name"]
        assert ("outcome" in got["ids"]) is (verdict["outcome"] is not None), entry["name"]
        assert sum(i.startswith("round-") for i in got["ids"]) == verdict["roundsChecked"], entry["name"]
        slots = verdict.get("winnerPicks")  # one item per slot of a several-winner draw, none otherwise
        assert sum(i.startswith("winner-") for i in got["ids"]) == (len(slots) if slots else 0), entry["name"]
    # Redraws (FAIRNESS.md §5b), checked against the record of the draw they redraw.
    for entry, got in zip(VECTORS["redraws"], out["redraws"]):
        assert got == {"ok": entry["verdict"]["ok"], "redraw": entry["verdict"]["redrawOk"]}, entry["name"]


def test_example_pasted_by_a_user_verifies_and_tampering_is_caught(open_page):
    page = open_page()
    assert paste_and_verify(page, json.dumps(EXAMPLE)) == "ok"
    assert all(page.verify_items().values())

    assert paste_and_verify(page, tampered(EXAMPLE, seed="ff" + EXAMPLE["seed"][2:])) == "mismatch"
    items = page.verify_items()
    assert items["commitment"] is False
    assert items["entrants"] is True
    assert not all(items[f"round-{r}"] for r in range(1, 11))

    renamed = [dict(EXAMPLE["entrants"][0], name="Jack Alexy Jr"), *EXAMPLE["entrants"][1:]]
    assert paste_and_verify(page, tampered(EXAMPLE, entrants=renamed)) == "mismatch"
    assert page.verify_items()["entrants"] is False

    assert paste_and_verify(page, tampered(EXAMPLE, outcome="void", winner=None)) == "mismatch"
    assert page.verify_items()["outcome"] is False

    assert paste_and_verify(page, "{not json") == "error"


def test_real_draw_verifies_including_what_was_shown_live(server, open_page):
    room = created_room(server)
    host = open_page(room["room"], room["hostKey"])
    host.el("start-button").click()
    host.wait_phase("result")
    assert host.verify_status() == "ok"
    items = host.verify_items()
    assert set(items) == {"commitment", "announced", "entrants", "outcome", *(f"round-{r}" for r in range(1, 11))}
    assert all(items.values())

    status, snapshot = api(server, "GET", f"/api/rooms/{room['room']}")
    assert status == 200
    assert paste_and_verify(host, json.dumps(snapshot)) == "ok"
    seed = snapshot["lastResult"]["seed"]
    forged = {**snapshot, "lastResult": {**snapshot["lastResult"], "seed": seed[:-1] + ("0" if seed[-1] != "0" else "1")}}
    assert paste_and_verify(host, json.dumps(forged)) == "mismatch"
    assert host.verify_items()["commitment"] is False


def test_last_result_from_the_snapshot_can_be_verified(server, open_page):
    room = created_room(server)
    status, _ = api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    assert status == 202
    first = open_page(room["room"])
    first.wait(lambda d: first.phase() == "result" or first.visible("last-result"), "the draw to end")

    late = open_page(room["room"])  # joins after the end: the result only exists in its snapshot
    assert late.phase() == "idle"
    assert late.visible("last-result")
    assert not late.visible("verify-result")
    late.el("verify-last").click()
    assert late.verify_status() == "ok"
    assert "announced" not in late.verify_items()  # this page did not see the draw start


def test_without_webcrypto_the_panel_explains_and_offers_the_record(server, open_page):
    """On plain http from a LAN address browsers hide crypto.subtle; simulated by removing it."""
    room = created_room(server)
    page = open_page(room["room"])
    page.driver.execute_script("Object.defineProperty(crypto, 'subtle', {value: undefined})")
    api(server, "POST", f"/api/rooms/{room['room']}/draws", key=room["hostKey"])
    page.wait_phase("result")
    assert page.verify_status() == "error"
    assert "tools/verify_draw.py" in page.text("verify-result")
    assert page.visible("copy-record")
