"""`--log-format json`: every line a real server writes to standard output is one JSON object
with timestamp, level, label, message and metadata, and no host key is in any of them; the
lobby's host link goes once to standard error instead (README "Logs").

The server is driven through what makes it log: room creation, draws started over HTTP and over
the WebSocket with keys, a refused key, key rotation, deletion, bad requests, and a SIGTERM.
"""
import asyncio
import json
import re
import signal

from helpers import http
from helpers.wsclient import WSClient, run

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
LEVELS = {"trace", "debug", "info", "notice", "warning", "error", "critical"}


def test_every_stdout_line_is_json_and_no_key_is_logged(launch):
    server = launch(_stderr_apart=True, log_format="json", log_level="trace")
    room = http.create_room(server, "json-logs")
    assert room.status == 201
    room_key = room.json["hostKey"]

    async def scenario():
        host = await WSClient.open(server.ws_url("json-logs"), name="host")
        try:
            await host.expect("snapshot")
            await host.send_json({"type": "start", "hostKey": "0" * 48})   # refused: forbidden
            await host.wait_for(lambda m: m.type == "error", timeout=5)
            await host.send_json({"type": "start", "hostKey": room_key})
            await host.collect_draw(timeout=15)
        finally:
            await host.close()

    run(scenario(), timeout=30)
    assert http.start_draw(server, "lobby", server.lobby_key).status == 202
    rotated = http.request(server, "POST", "/api/rooms/json-logs/key", may_carry_key=True,
                           headers={"Authorization": f"Bearer {room_key}", "Content-Type": "application/json"})
    assert rotated.status == 200
    new_key = rotated.json["hostKey"]
    assert http.request(server, "GET", "/api/rooms/no-such-room").status == 404
    assert http.request(server, "DELETE", "/api/rooms/json-logs",
                        headers={"Authorization": f"Bearer {new_key}"}).status == 204
    server.signal(signal.SIGTERM)
    assert server.wait(30) == 0
    server.stop()  # joins the output readers

    assert server.lines, "nothing on standard output"
    for line in server.lines:
        entry = json.loads(line)  # raises on any line that is not one JSON object
        assert isinstance(entry, dict) and list(entry) == ["timestamp", "level", "label", "message", "metadata"], line
        assert TIMESTAMP.match(entry["timestamp"]), line
        assert entry["level"] in LEVELS, line
        assert isinstance(entry["label"], str) and isinstance(entry["message"], str), line
        assert isinstance(entry["metadata"], dict), line
        for secret in (server.lobby_key, room_key, new_key):
            assert secret not in line, f"a host key in the log: {line}"
    messages = [json.loads(line)["message"] for line in server.lines]
    assert any(m.startswith("live-draw listening on http://127.0.0.1:") for m in messages)
    assert any("draining" in m for m in messages), "the SIGTERM's drain is logged"

    # The host link: once, on standard error, and nothing else there.
    assert len(server.err_lines) == 1, server.err_lines
    assert server.err_lines[0].startswith("host link (keep it private: it starts draws): ")
    assert server.err_lines[0].endswith(f"/?room=lobby#key={server.lobby_key}")
