"""Bad clients are answered or cut off; a well-behaved neighbour in the same room never notices.

PROTOCOL.md section 2 `error` (codes, strikes), section 3 (limits) and section 4 (1008, 1009).
"""
import asyncio
import json

from helpers import draw, http
from helpers.wsclient import WSClient, close_all, run

MAX_MESSAGE_BYTES = 4096   # documented default
MAX_STRIKES = 10
BURST = 40


async def _bystander_is_fine(server, bystander: WSClient) -> None:
    """The neighbour still gets pong, saw no error, and sees the next draw to its verified end."""
    before = await bystander.barrier()
    assert not before, f"bystander got: {[m.raw[:120] for m in before]}"
    assert (await asyncio.to_thread(http.start_draw, server, "lobby", server.lobby_key)).status == 202
    seq = await bystander.collect_draw(timeout=10)
    assert [m.type for m in seq] == ["loading", "started"] + ["round"] * 10 + ["finished"]
    draw.assert_verifies(seq[-1].data, seq[1].data, [m.data for m in seq[2:12]])


async def _pair(server):
    bystander = await WSClient.open(server.ws_url("lobby"), name="bystander")
    bad = await WSClient.open(server.ws_url("lobby"), name="misbehaving")
    await bystander.expect("snapshot")
    await bad.expect("snapshot")
    return bystander, bad


def _ping_of_size(n: int) -> str:
    """A valid ping frame of exactly `n` bytes (the id pads it)."""
    base = json.dumps({"type": "ping", "id": ""})
    text = json.dumps({"type": "ping", "id": "p" * (n - len(base))})
    assert len(text.encode()) == n
    return text


def test_frame_at_limit_is_fine_and_oversized_frame_closes_1009(server):
    async def scenario():
        bystander, bad = await _pair(server)
        try:
            await bad.send_raw(_ping_of_size(MAX_MESSAGE_BYTES))
            pong, _ = await bad.wait_for(lambda m: m.type == "pong", timeout=5)
            assert pong.type == "pong", "a frame of exactly the limit must be accepted"
            await bad.send_raw(_ping_of_size(MAX_MESSAGE_BYTES + 1000))
            closed, before = await bad.expect_close(timeout=5)
            assert closed.code == 1009, f"oversized frame closed with {closed}"
            assert not any(m.type == "pong" for m in before), "the oversized ping was answered"
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)


def test_malformed_json_and_unknown_types_are_errors(server):
    cases = [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_json"),
        ('"just a string"', "bad_json"),
        ("", "bad_json"),
        ('{"type": "launch"}', "unknown_type"),
        ('{"id": 3}', "unknown_type"),
    ]

    async def scenario():
        bystander, bad = await _pair(server)
        try:
            for text, code in cases:
                await bad.send_raw(text)
                err = await bad.expect("error", timeout=5)
                assert err["code"] == code, f"{text!r} -> {err.raw}"
            assert not await bad.barrier(), "the connection should still work after a few strikes"
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)


def test_binary_frame_is_refused_but_connection_stays(server):
    async def scenario():
        bystander, bad = await _pair(server)
        try:
            await bad.send_raw(b'{"type":"ping","id":1}')
            err = await bad.expect("error", timeout=5)
            assert err["code"] == "binary_not_supported", err.raw
            assert not await bad.barrier()
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)


def test_tenth_strike_closes_1008(server):
    """Nine bad messages are tolerated (the connection still answers); the tenth closes it."""
    async def scenario():
        bystander, bad = await _pair(server)
        try:
            for _ in range(MAX_STRIKES - 1):
                await bad.send_raw("nope")
                assert (await bad.expect("error", timeout=5))["code"] == "bad_json"
            assert not await bad.barrier(), "closed or erroring before the strike limit"
            await bad.send_raw("nope")
            closed, before = await bad.expect_close(timeout=5)
            assert closed.code == 1008, f"closed with {closed}"
            assert all(m.type == "error" for m in before), [m.raw for m in before]
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)


def test_flood_is_rate_limited_then_closed_1008(server):
    """300 pings at once: about the burst gets pongs, then rate_limited strikes, then 1008."""
    flood = 300

    async def scenario():
        bystander, bad = await _pair(server)
        try:
            for i in range(flood):
                try:
                    await bad.send_json({"type": "ping", "id": i})
                except Exception:
                    break  # the server may close while we are still sending: that is the point
            closed, before = await bad.expect_close(timeout=10)
            pongs = [m for m in before if m.type == "pong"]
            errors = [m for m in before if m.type == "error"]
            assert closed.code == 1008, f"flood closed with {closed} after {len(pongs)} pongs, {len(errors)} errors"
            assert errors and all(m["code"] == "rate_limited" for m in errors), [m.raw for m in errors[:3]]
            assert 1 <= len(errors) <= MAX_STRIKES, f"{len(errors)} rate_limited errors before the close"
            assert BURST - 2 <= len(pongs) <= BURST + 20, f"{len(pongs)} pongs for a burst of {BURST}"
            ids = [m["id"] for m in pongs]
            assert ids[:BURST - 2] == list(range(BURST - 2)) and ids == sorted(set(ids)), \
                f"pongs out of order or for the wrong pings: {ids}"
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)
