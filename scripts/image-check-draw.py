#!/usr/bin/env python3
"""One whole draw against a server, from outside it (scripts/image-check.sh's client).

Usage: image-check-draw.py HOST:PORT LOBBY_KEY. Joins the lobby over WebSocket, starts a draw
with the key, waits for `finished`, then reads the draw's record over HTTP: it must say
`finished` and `verified` (the store in the data volume was written and read back).
Exit 0 on success; one line on stderr and exit 1 otherwise. Needs the `websockets` package
(installed by scripts/install-deps.sh --test).
"""
import asyncio
import json
import sys
import urllib.request

import websockets


async def draw(address: str, key: str) -> str:
    async with websockets.connect(f"ws://{address}/ws/lobby", subprotocols=["live-draw.v1"]) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert first["type"] == "snapshot", first
        await ws.send(json.dumps({"type": "start", "hostKey": key}))
        rounds = 0
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if m["type"] == "round":
                rounds += 1
            elif m["type"] in ("failed", "aborted", "error"):
                raise AssertionError(f"the draw ended with {m}")
            elif m["type"] == "finished":
                assert rounds == m["rounds"], (rounds, m["rounds"])
                return m["drawId"]


def main() -> int:
    address, key = sys.argv[1], sys.argv[2]
    try:
        draw_id = asyncio.run(draw(address, key))
        with urllib.request.urlopen(f"http://{address}/api/draws/{draw_id}", timeout=10) as resp:
            record = json.load(resp)
        assert record["status"] == "finished" and record["verified"] is True, record
    except Exception as e:  # one line for the script's log, whatever went wrong
        print(f"image-check-draw: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(f"image-check-draw: draw {draw_id} finished, recorded and verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
