"""Bad clients are answered or cut off; a well-behaved neighbour in the same room never notices.

PROTOCOL.md section 2 `error` (codes, strikes), section 3 (limits) and section 4 (1008, 1009).
"""
import asyncio
import json

from websockets.exceptions import ConnectionClosed

from helpers import draw, http
from helpers.wsclient import ConnectionClosedByServer, WSClient, close_all, run

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
    """A burst past the allowance earns rate_limited strikes; strike 10 closes with 1008.

    Phase 1 fires BURST + 5 pings without waiting (a real flood, but short of the strike limit);
    phase 2 keeps pushing one ping at a time until the server closes. The flood stops at the close
    on purpose: bytes sent to a socket the server has closed make the kernel answer with a reset,
    which discards the close frame before a client can read it.
    """
    first = BURST + 5

    async def scenario():
        bystander, bad = await _pair(server)
        try:
            for i in range(first):
                await bad.send_json({"type": "ping", "id": i})
            answers = []
            while len(answers) < first:
                m = await bad.next_non_presence(timeout=5)
                answers.append(m)
            pongs = [m for m in answers if m.type == "pong"]
            errors = [m for m in answers if m.type == "error"]
            assert errors, f"{first} pings at once and no rate_limited: {len(pongs)} pongs"
            assert all(m["code"] == "rate_limited" for m in errors), [m.raw for m in errors[:3]]
            assert BURST - 2 <= len(pongs) <= BURST + 5, f"{len(pongs)} of {first} pings answered for a burst of {BURST}"
            ids = [m["id"] for m in pongs]
            assert ids[:BURST - 2] == list(range(BURST - 2)) and ids == sorted(set(ids)), ids

            closed = None
            for i in range(first, first + 3 * MAX_STRIKES):
                try:
                    await bad.send_json({"type": "ping", "id": i})
                except ConnectionClosed:
                    break  # the close frame is already here; expect_close below reads it
                try:
                    m = await bad.next_non_presence(timeout=5)
                except ConnectionClosedByServer as e:
                    closed = e.closed
                    break
                answers.append(m)
                if m.type == "error":
                    assert m["code"] == "rate_limited", m.raw
            if closed is None:
                closed, rest = await bad.expect_close(timeout=5)
                answers += rest
            assert closed is not None, "never closed although every ping past the burst is a strike"
            errors = [m for m in answers if m.type == "error"]
            assert closed.code == 1008, f"flood closed with {closed} after {len(errors)} errors"
            assert MAX_STRIKES - 1 <= len(errors) <= MAX_STRIKES, f"closed after {len(errors)} rate_limited errors"
            await _bystander_is_fine(server, bystander)
        finally:
            await close_all([bystander, bad])

    run(scenario(), timeout=30)
