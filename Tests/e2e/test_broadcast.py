"""Everyone in a room sees the same draw, on time; rooms are isolated; late joiners catch up.

PROTOCOL.md section 2 (snapshot, presence, loading, started, round, finished) and FAIRNESS.md.
"""
import asyncio

from conftest import DEFAULT_INTERVAL_MS, LATE_MS
from helpers import draw, http
from helpers.seed import SEED_ENTRANTS
from helpers.wsclient import WSClient, close_all, now_ms, open_many, run

DRAW_SEQUENCE = ["loading", "started"] + ["round"] * 10 + ["finished"]


def test_fifty_clients_see_the_identical_draw(server):
    """50 viewers: identical sequence and bytes, rounds 1..10 on schedule, a verifiable result."""
    n = 50

    async def scenario():
        clients = await open_many(server.ws_url("lobby"), n)
        try:
            snaps = [await c.next(5) for c in clients]
            for s in snaps:
                assert s.type == "snapshot", f"first message must be the snapshot, got {s.raw[:200]}"
                assert s["protocol"] == 1 and s["room"] == "lobby"
                assert s["draw"] is None and s["lastResult"] is None
                assert isinstance(s["serverTime"], (int, float))
            # Presence converges on the full count (coalesced, but the latest count always lands).
            await asyncio.gather(*(c.wait_viewers(n, timeout=5) for c in clients))

            resp = await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)
            assert resp.status == 202, resp.body
            assert resp.json == {"room": "lobby", "status": "loading"}

            seqs = await asyncio.gather(*(c.collect_draw(timeout=10) for c in clients))
            # Someone arriving now finds the result in the snapshot.
            newcomer = await WSClient.open(server.ws_url("lobby"), name="newcomer")
            clients.append(newcomer)
            after = await newcomer.next(5)
        finally:
            await close_all(clients)
        assert after.type == "snapshot" and after["draw"] is None
        expected_last = dict(seqs[0][-1].data)
        del expected_last["type"]
        assert after["lastResult"] == expected_last, "snapshot.lastResult must be the last finished, without type"

        for c, seq in zip(clients, seqs):
            assert [m.type for m in seq] == DRAW_SEQUENCE, f"{c.name}: {[m.type for m in seq]}"
        # Byte-identical broadcast: one payload per event, shared by the whole room.
        for pos in range(len(DRAW_SEQUENCE)):
            payloads = {seq[pos].raw for seq in seqs}
            assert len(payloads) == 1, f"clients disagree on message {pos} ({DRAW_SEQUENCE[pos]}): {len(payloads)} variants"

        seq = seqs[0]
        loading, started, rounds, finished = seq[0], seq[1], seq[2:12], seq[12]
        assert loading["room"] == "lobby" and loading["at"] <= started["startedAt"]
        assert started["entrants"] == SEED_ENTRANTS
        assert started["warnings"] == []
        assert len(started["drawId"]) == 32 and all(ch in "0123456789abcdef" for ch in started["drawId"])
        assert "seed" not in started.data
        draw.assert_schedule(started.data, DEFAULT_INTERVAL_MS)
        for r in rounds:
            draw.assert_round_consistent(r.data, started.data)
        draw.assert_on_time(started.data, [r.data for r in rounds], finished.data, late_ms=LATE_MS)
        for s in seqs:
            draw.assert_prompt(s, max_latency_ms=250)
        draw.assert_verifies(finished.data, started.data, [r.data for r in rounds])

    run(scenario(), timeout=60)


def test_two_rooms_run_at_once_without_leaking(server):
    """Concurrent draws in two rooms: different drawIds, each client sees only its own room's."""
    created = http.create_room(server, "room-b")
    assert created.status == 201, created.body
    rooms = {"lobby": server.lobby_key, "room-b": created.json["hostKey"]}

    async def scenario():
        groups = {room: await open_many(server.ws_url(room), 3, prefix=f"{room}-") for room in rooms}
        everyone = [c for g in groups.values() for c in g]
        try:
            for room, group in groups.items():
                for c in group:
                    snap = await c.next(5)
                    assert snap.type == "snapshot" and snap["room"] == room
            answers = await asyncio.gather(*(asyncio.to_thread(http.start_draw, server, room, key)
                                             for room, key in rooms.items()))
            assert [a.status for a in answers] == [202, 202], [a.body for a in answers]
            seqs = {room: await asyncio.gather(*(c.collect_draw(timeout=10) for c in group))
                    for room, group in groups.items()}
            # Both draws are over: anything still arriving now would be a leak.
            leftovers = await asyncio.gather(*(c.barrier() for c in everyone))
            assert all(not extra for extra in leftovers), [[m.raw[:120] for m in e] for e in leftovers if e]
        finally:
            await close_all(everyone)

        draw_ids = {}
        for room, room_seqs in seqs.items():
            for seq in room_seqs:
                assert [m.type for m in seq] == DRAW_SEQUENCE
                assert seq[0]["room"] == room
                ids = {m["drawId"] for m in seq[1:]}
                assert len(ids) == 1, f"a client of {room} saw several drawIds: {ids}"
                draw_ids.setdefault(room, set()).update(ids)
            assert len({seq[-1].raw for seq in room_seqs}) == 1
            seq = room_seqs[0]
            draw.assert_verifies(seq[-1].data, seq[1].data, [m.data for m in seq[2:12]])
        assert len(draw_ids["lobby"]) == 1 and len(draw_ids["room-b"]) == 1
        assert draw_ids["lobby"] != draw_ids["room-b"]
        # The two draws really overlapped in time (otherwise this is not a concurrency test).
        a, b = seqs["lobby"][0], seqs["room-b"][0]
        assert a[1]["startedAt"] < b[-1]["finishedAt"] and b[1]["startedAt"] < a[-1]["finishedAt"], \
            "the two draws did not run at the same time"

    run(scenario(), timeout=60)


def test_late_joiner_gets_rounds_so_far_then_the_rest(launch):
    """Joining after round 4: snapshot holds rounds 1-4 (no seed), then 5-10 and the same finished."""
    interval = 150
    server = launch(round_interval_ms=interval)

    async def scenario():
        early = await WSClient.open(server.ws_url("lobby"), name="early")
        late = None
        try:
            await early.expect("snapshot")
            assert (await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)).status == 202
            await early.expect("loading", timeout=5)
            started = await early.expect("started", timeout=5)
            round4, skipped = await early.wait_for(lambda m: m.type == "round" and m["round"] == 4, timeout=5)
            late = await WSClient.open(server.ws_url("lobby"), name="late")
            snap = await late.next(5)
            assert snap.type == "snapshot", snap.raw[:200]
            late_rest = await late.collect_draw(timeout=10)
            early_rest = await early.collect_draw(timeout=10)
        finally:
            await close_all([c for c in (early, late) if c])

        early_rounds = [m.data for m in skipped + [round4] + early_rest[:-1]]
        assert [r["round"] for r in early_rounds] == list(range(1, 11))
        d = snap["draw"]
        assert d is not None and d["phase"] == "running", snap.raw[:300]
        assert "seed" not in d and '"seed"' not in snap.raw, "a running draw's seed must never be in a snapshot"
        for k in ("drawId", "commitment", "entrantsHash", "entrants", "warnings", "schedule", "startedAt"):
            assert d[k] == started[k], f"snapshot draw.{k} differs from started.{k}"
        shown = d["rounds"]
        k = len(shown)
        # Round 5 is due a full interval after round 4; the join takes a few ms. Only if the snapshot
        # was taken after round 5's planned time may it already hold round 5.
        round5_due = started["startedAt"] + started["schedule"]["offsetsMs"][4]
        assert k == 4 or (k == 5 and snap["serverTime"] >= round5_due - 5), \
            f"snapshot after round 4 holds {k} rounds (serverTime +{snap['serverTime'] - started['startedAt']:.0f} ms)"
        assert shown == [draw.round_body(r) for r in early_rounds[:k]], "snapshot rounds differ from the broadcast ones"
        assert [m.type for m in late_rest] == ["round"] * (10 - k) + ["finished"]
        assert [m.raw for m in late_rest] == [m.raw for m in early_rest[len(early_rest) - 1 - (10 - k):]], \
            "the late joiner's rounds/finished differ from the early viewer's"
        assert late_rest[-1].raw == early_rest[-1].raw
        draw.assert_verifies(late_rest[-1].data, started.data, shown + [m.data for m in late_rest[:-1]])
        draw.assert_on_time(started.data, early_rounds, early_rest[-1].data, late_ms=LATE_MS)

    run(scenario(), timeout=30)


def test_presence_is_coalesced(server):
    """Joins spread over ~0.8 s: the watcher gets a few presence updates, not one per join,
    and the last one carries the final count (PROTOCOL.md: at most one every 250 ms per room)."""
    joiners, spacing_s = 40, 0.02

    async def scenario():
        watcher = await WSClient.open(server.ws_url("lobby"), name="watcher")
        others = []
        try:
            await watcher.expect("snapshot")
            t0 = now_ms()
            for i in range(joiners):
                others.append(await WSClient.open(server.ws_url("lobby"), name=f"j{i}"))
                await asyncio.sleep(spacing_s)  # pacing the join storm, not waiting for a result
            await watcher.wait_viewers(joiners + 1, timeout=5)
            elapsed = now_ms() - t0
        finally:
            await close_all([watcher] + others)
        presences = [m for m in watcher.log if m.type == "presence"]
        assert len(presences) <= elapsed / 250 + 2, \
            f"{len(presences)} presence messages for {joiners} joins in {elapsed:.0f} ms: not coalesced"
        assert presences[-1]["viewers"] == joiners + 1
        counts = [m["viewers"] for m in presences]
        assert counts == sorted(counts), f"viewer counts went backwards while only joins happened: {counts}"

    run(scenario(), timeout=30)
