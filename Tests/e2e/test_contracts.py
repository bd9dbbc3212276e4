"""docs/openapi.yaml and docs/asyncapi.yaml are contracts, not prose: real responses and real
messages of a real server are validated against them, and an endpoint, a message type, an error
code or a close code that exists in one place (the documents, the server's code, PROTOCOL.md)
and not in the others fails here.
"""
import asyncio
import re
import signal
import time

from jsonschema import Draft202012Validator

from helpers import contracts, http, keys
from helpers.cli import REPO
from helpers.datasource import USERS
from helpers.protocol import SUBPROTOCOL
from helpers.rooms import put_entrants, put_settings
from helpers.wsclient import WSClient, close_all, run

SOURCES = REPO / "Sources"
PROTOCOL = (REPO / "docs" / "PROTOCOL.md").read_text()
JSON = {"Content-Type": "application/json"}


def _section(title_start: str) -> str:
    start = PROTOCOL.index(f"\n## {title_start}")
    end = PROTOCOL.find("\n## ", start + 1)
    return PROTOCOL[start:end if end > 0 else None]


# -- the documents themselves ---------------------------------------------------------------

def test_the_documents_are_what_they_claim():
    assert contracts.load("openapi.yaml")["openapi"] == "3.1.0"
    assert contracts.load("asyncapi.yaml")["asyncapi"] == "3.0.0"
    for name in ("openapi.yaml", "asyncapi.yaml"):
        for key, schema in contracts.load(name)["components"]["schemas"].items():
            Draft202012Validator.check_schema(schema)  # raises on a schema that is not one
    # Every channel message is in an operation, and every operation's message in the channel.
    channel = set(contracts.load("asyncapi.yaml")["channels"]["room"]["messages"])
    assert contracts.operation_messages("receive") | contracts.operation_messages("send") == channel


# -- one place and not the other -------------------------------------------------------------

def test_message_types_agree_with_the_server_and_protocol_md():
    written = set()
    for swift in (SOURCES / "DrawPresentation").glob("*.swift"):
        written |= set(re.findall(r'field\("type", "([a-z_]+)"\)', swift.read_text()))
    read = set(re.findall(r'case "([a-z_]+)": return \.success', (SOURCES / "DrawPresentation" / "ClientMessage.swift").read_text()))
    in_prose = set(re.findall(r"^### `([a-z_]+)`", _section("2. Server"), re.M))
    client_prose = set(re.findall(r'^\| `\{"type":"([a-z_]+)"', _section("3. Client"), re.M))
    assert written == contracts.operation_messages("receive") == in_prose, (written, in_prose)
    assert read == contracts.operation_messages("send") == client_prose, (read, client_prose)


def test_error_codes_agree_with_the_server_and_protocol_md():
    swift = (SOURCES / "DrawPresentation" / "ClientErrorCode.swift").read_text()
    in_code = set(re.findall(r'^\s*case \w+ = "([a-z0-9_]+)"', swift, re.M))
    in_openapi = set(contracts.load("openapi.yaml")["components"]["schemas"]["ErrorCode"]["enum"])
    assert in_code == in_openapi
    unnamed = [c for c in sorted(in_code) if not re.search(rf"`[^`\n]*\b{c}\b[^`\n]*`", PROTOCOL)]
    assert not unnamed, f"error codes PROTOCOL.md never names: {unnamed}"


def test_close_codes_agree_with_the_server_and_protocol_md():
    swift = (SOURCES / "DrawTransport" / "CloseCode.swift").read_text()
    # 1000 is the client's own, echoed; every other code the server sends is documented.
    in_code = {int(c) for c in re.findall(r"static let \w+: UInt16 = (\d+)", swift)} - {1000}
    in_prose = {int(c) for c in re.findall(r"^\| `(\d{4})` \|", _section("4. Close codes"), re.M)}
    assert in_code == contracts.close_codes() == in_prose


def test_endpoints_agree_with_protocol_md():
    rows = re.findall(r"^\| `(GET|POST|DELETE|PUT|PATCH) (/[^` ?]*)", _section("5. HTTP API"), re.M)
    in_prose = {(m, p.replace("ROOM", "{room}").replace("ID", "{drawId}")) for m, p in rows if "…" not in p}
    assert in_prose == contracts.operations()


def test_allowed_methods_agree_with_the_server(shared_server):
    """The server's 405 `Allow` header is HTTPRoute's list: it must be the document's."""
    documented: dict[str, set] = {}
    for method, template in contracts.operations():
        documented.setdefault(template, set()).add(method)
    for template, methods in documented.items():
        path = template.replace("{room}", "lobby").replace("{drawId}", "0" * 32)
        resp = http.request(shared_server, "PATCH", path)
        assert resp.status == 405, (path, resp.status)
        allow = {m.strip() for m in resp.headers["allow"].split(",")} - {"HEAD"}
        assert allow == methods, (template, allow, methods)


# -- real traffic ----------------------------------------------------------------------------

class Recorder:
    """Sends requests and keeps every exchange, to validate them all at the end."""

    def __init__(self, server):
        self.server, self.seen, self.problems = server, set(), []

    def __call__(self, method, path, body=None, headers=None, expect=None):
        resp = http.request(self.server, method, path, body=body, headers=headers, may_carry_key=True)
        if expect is not None:
            assert resp.status == expect, (method, path, resp.status, resp.body[:300])
        template = contracts.template_of(path)
        self.seen.add((method, template, resp.status))
        for problem in contracts.response_errors(method, path, resp.status, resp.headers.get("content-type", ""),
                                                 resp.body):
            line = f"{method} {template} {resp.status}: {problem}"[:400]
            if line not in self.problems:
                self.problems.append(line)
        return resp


def _wait_room(call, room, pred, timeout=15.0):
    deadline = time.monotonic() + timeout
    while True:
        snapshot = call("GET", f"/api/rooms/{room}", expect=200).json
        if pred(snapshot):
            return snapshot
        assert time.monotonic() < deadline, f"room {room} never got there: {snapshot}"
        time.sleep(0.02)


def test_http_responses_match_openapi(launch, data_source):
    server = launch(max_upload_bytes=4096)
    call = Recorder(server)
    call("GET", "/healthz", expect=200)
    call("GET", "/metrics", expect=200)
    call("POST", "/api/rooms", {}, JSON, expect=201)
    room = call("POST", "/api/rooms", {"name": "contract-room"}, JSON, expect=201).json
    key = room["hostKey"]
    call("POST", "/api/rooms", {"name": "contract-room"}, JSON, expect=409)
    call("POST", "/api/rooms", {"name": "Not Valid"}, JSON, expect=400)
    call("POST", "/api/rooms", "{", JSON, expect=400)
    call("POST", "/api/rooms", {}, {"Content-Type": "text/plain"}, expect=415)
    call("POST", "/api/rooms", "x" * 20_000, JSON, expect=413)
    call("GET", "/api/rooms/contract-room", expect=200)
    call("GET", "/api/rooms/no-such-room", expect=404)
    assert call("GET", "/api/rooms/contract-room/qr.svg", expect=200).body.lstrip().startswith(b"<")
    call("GET", "/api/rooms/no-such-room/qr.svg", expect=404)
    bearer = {"Authorization": f"Bearer {key}", **JSON}

    call("POST", "/api/rooms/contract-room/draws", None, JSON, expect=401)
    call("POST", "/api/rooms/contract-room/draws", None, {"Authorization": "Bearer " + "0" * 48, **JSON}, expect=403)
    call("POST", "/api/rooms/contract-room/draws", None, bearer, expect=202)
    call("POST", "/api/rooms/contract-room/draws", None, bearer, expect=409)
    call("PUT", "/api/rooms/contract-room/entrants", "Ann", {**bearer, "Content-Type": "text/plain"}, expect=409)
    call("PUT", "/api/rooms/contract-room/settings", {"winners": 2}, bearer, expect=409)
    _wait_room(call, "contract-room", lambda s: s["draw"] is not None and s["draw"]["phase"] == "running")
    done = _wait_room(call, "contract-room", lambda s: s["lastResult"] is not None)
    draw_id = done["lastResult"]["drawId"]
    call("GET", f"/api/draws/{draw_id}", expect=200)
    call("GET", "/api/draws/not-a-draw", expect=404)
    call("GET", f"/api/draws/{draw_id}/entrants", expect=200)
    call("GET", f"/api/draws/{'0' * 32}/entrants", expect=404)
    # Redraw its winner (a one-winner draw of the operator's lists), then the next winner of a
    # draw that waits for the host (issue 28).
    call("POST", "/api/rooms/contract-room/draws/next", None, bearer, expect=409)
    call("PUT", "/api/rooms/contract-room/settings", {"winners": 2, "rounds": 2}, bearer, expect=200)
    call("POST", "/api/rooms/contract-room/draws", {"reveal": "nonsense"}, bearer, expect=422)
    call("POST", "/api/rooms/contract-room/draws", {"reveal": "host"}, bearer, expect=202)
    _wait_room(call, "contract-room", lambda s: s["draw"] and s["draw"].get("progress", {}).get("awaitingHost"))
    call("POST", "/api/rooms/contract-room/draws/next", None, bearer, expect=202)
    two = _wait_room(call, "contract-room", lambda s: s["draw"] is None)["lastResult"]
    winner = next(p for p in two["winnerPicks"] if not p["void"])  # two slots, one void entry at most
    redraws = "/api/rooms/contract-room/redraws"
    call("POST", redraws, {"drawId": "0" * 32, "userId": winner["userId"]}, bearer, expect=409)
    call("POST", redraws, {"drawId": two["drawId"]}, bearer, expect=400)
    call("POST", redraws, {"drawId": two["drawId"], "userId": winner["userId"]}, bearer, expect=202)
    _wait_room(call, "contract-room", lambda s: s["draw"] is None and s["lastResult"]["drawId"] != two["drawId"])
    call("PUT", "/api/rooms/contract-room/settings", {"winners": 1}, bearer, expect=200)

    data_source.set_status(USERS, 500)  # a failed draw, and its record
    call("POST", "/api/rooms/contract-room/draws", None, bearer, expect=202)
    _wait_room(call, "contract-room", lambda s: s["draw"] is None)
    data_source.reset()
    page = call("GET", "/api/rooms/contract-room/draws?limit=1", expect=200).json
    assert page["draws"][0]["status"] == "failed" and page["nextCursor"]
    call("GET", f"/api/draws/{page['draws'][0]['drawId']}", expect=200)
    call("GET", f"/api/rooms/contract-room/draws?limit=1&cursor={page['nextCursor']}", expect=200)
    call("GET", "/api/rooms/contract-room/draws?limit=0", expect=400)
    call("GET", "/api/rooms/contract-room/draws?cursor=nonsense", expect=400)
    call("GET", "/api/rooms/no-such-room/draws", expect=404)

    # A room's own list and settings (issue 15).
    entrants, settings = "/api/rooms/contract-room/entrants", "/api/rooms/contract-room/settings"
    text = {"Authorization": f"Bearer {key}", "Content-Type": "text/plain"}
    call("PUT", entrants, "Ann\nBob\nAnn\n", text, expect=200)
    lists = {"users": {"items": [{"userId": 1, "name": "A", "username": "a", "regDate": "2020-01-01"}]},
             "usersInLottery": [{"userId": 1, "void": False}, {"userId": 2, "void": False}]}
    call("PUT", entrants, lists, bearer, expect=200)
    call("PUT", entrants, "\n", text, expect=422)
    call("PUT", entrants, "{", bearer, expect=400)
    call("PUT", entrants, "x" * 5000, text, expect=413)
    call("PUT", entrants, "Ann", {**text, "Content-Type": "text/csv"}, expect=415)
    call("PUT", entrants, "Ann", {"Content-Type": "text/plain"}, expect=401)
    call("PUT", entrants, "Ann", {**text, "Authorization": "Bearer " + "0" * 48}, expect=403)
    call("PUT", "/api/rooms/no-such-room/entrants", "Ann", text, expect=404)
    call("GET", entrants, None, bearer, expect=200)
    call("GET", entrants, None, {}, expect=401)
    call("GET", "/api/rooms/no-such-room/entrants", None, bearer, expect=404)
    call("PUT", settings, {"winners": 1, "rounds": 3}, bearer, expect=200)
    call("PUT", settings, {"winners": 999}, bearer, expect=422)
    call("PUT", settings, "{", bearer, expect=400)
    call("PUT", settings, {}, {"Authorization": f"Bearer {key}", "Content-Type": "text/plain"}, expect=415)
    call("PUT", settings, {}, JSON, expect=401)
    call("PUT", "/api/rooms/no-such-room/settings", {}, bearer, expect=404)
    call("GET", "/api/rooms/contract-room", expect=200)
    # A scheduled draw (issue 30): refused times, scheduled, read before it runs, cancelled.
    schedule = "/api/rooms/contract-room/schedule"
    call("PUT", schedule, {"at": "soon"}, bearer, expect=400)
    call("PUT", schedule, {"at": "2000-01-01T00:00:00Z"}, bearer, expect=422)
    call("PUT", schedule, {"at": "soon"}, JSON, expect=401)
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 600))
    scheduled = call("PUT", schedule, {"at": at}, bearer, expect=201).json
    call("PUT", schedule, {"at": at}, bearer, expect=409)
    call("GET", "/api/rooms/contract-room", expect=200)
    call("GET", f"/api/draws/{scheduled['drawId']}", expect=200)
    call("DELETE", schedule, headers={"Authorization": f"Bearer {key}"}, expect=200)
    call("DELETE", schedule, headers={"Authorization": f"Bearer {key}"}, expect=404)
    call("GET", f"/api/draws/{scheduled['drawId']}", expect=200)
    call("DELETE", entrants, headers={"Authorization": f"Bearer {key}"}, expect=204)
    call("DELETE", entrants, expect=401)

    new_key = call("POST", "/api/rooms/contract-room/key", None, bearer, expect=200).json["hostKey"]
    call("POST", "/api/rooms/contract-room/key", None, bearer, expect=403)
    call("POST", "/api/rooms/contract-room/key", None, {"Authorization": f"Bearer {new_key}"}, expect=415)
    call("POST", "/api/rooms/contract-room/key", None, JSON, expect=401)
    call("POST", "/api/rooms/no-such-room/key", None, bearer, expect=404)
    call("DELETE", "/api/rooms/contract-room", headers={"Authorization": f"Bearer {new_key}"}, expect=204)
    call("DELETE", "/api/rooms/contract-room", headers={"Authorization": f"Bearer {new_key}"}, expect=404)
    call("DELETE", "/api/rooms/lobby", headers={"Authorization": f"Bearer {server.lobby_key}"}, expect=403)
    call("DELETE", "/api/rooms/lobby", expect=401)

    # Draining: a draw held in loading keeps the server draining while it is looked at.
    other = call("POST", "/api/rooms", {"name": "contract-later"}, JSON, expect=201).json
    data_source.hold(USERS)
    call("POST", "/api/rooms/lobby/draws", None, {"Authorization": f"Bearer {server.lobby_key}", **JSON}, expect=202)
    server.signal(signal.SIGTERM)
    deadline = time.monotonic() + 5
    while call("GET", "/healthz").status != 503:
        assert time.monotonic() < deadline, "/healthz never said draining"
        time.sleep(0.02)
    call("POST", "/api/rooms/contract-later/draws", None, {"Authorization": f"Bearer {other['hostKey']}", **JSON}, expect=503)
    data_source.release()
    assert server.wait(15) == 0

    assert not call.problems, "\n".join(call.problems)
    # Every documented operation was called and answered with its success status.
    successes = {(m, t) for m, t, s in call.seen if s < 300}
    assert successes == contracts.operations(), contracts.operations() - successes


def test_websocket_messages_match_asyncapi(launch, data_source):
    server = launch(round_interval_ms=150, heartbeat_seconds=1)

    async def scenario():
        viewer = await WSClient.open(server.ws_url("lobby"), name="viewer")
        viewer.keep_heartbeats = True
        late = None
        v2_messages = []
        rooms_log = []
        try:
            await viewer.expect("snapshot")
            await viewer.wait_for(lambda m: m.type == "heartbeat", timeout=5)
            # A host's change between draws reaches the room's viewers as `room`.
            key = http.created_room(server, "contract")["hostKey"]
            other = await WSClient.open(server.ws_url("contract"), name="other")
            await other.expect("snapshot")
            assert put_entrants(server, "contract", key, "Ann\nBob\nAnn").status == 200
            await other.wait_for(lambda m: m.type == "room", timeout=5)
            await other.close()
            rooms_log = other.log
            # Two winners revealed one by one as the host advances: `winner` and `advance`.
            assert put_settings(server, "contract", key, {"winners": 2, "rounds": 2}).status == 200
            revealer = await WSClient.open(server.ws_url("contract"), name="revealer", subprotocols=(SUBPROTOCOL,))
            await revealer.expect("snapshot")
            await revealer.send_json({"type": "start", "hostKey": key, "reveal": "host"})
            await revealer.wait_for(lambda m: m.type == "winner", timeout=10)
            await revealer.send_json({"type": "next", "hostKey": key})
            await revealer.wait_for(lambda m: m.type == "finished", timeout=10)
            await revealer.close()
            rooms_log = rooms_log + revealer.log
            await viewer.send_json({"type": "ping", "id": "contract"})
            await viewer.wait_for(lambda m: m.type == "pong", timeout=5)
            await viewer.send_json({"type": "start", "hostKey": "0" * 48})
            await viewer.wait_for(lambda m: m.type == "error", timeout=5)
            await viewer.send_json({"type": "start", "hostKey": server.lobby_key})
            await viewer.wait_for(lambda m: m.type == "round", timeout=10)
            late = await WSClient.open(server.ws_url("lobby"), name="late")  # a snapshot mid-draw
            await late.expect("snapshot")
            # The same mid-draw snapshot in v2 (the count and hash, no list).
            late_v2 = await WSClient.open(server.ws_url("lobby"), name="late-v2", subprotocols=(SUBPROTOCOL,))
            await late_v2.expect("snapshot")
            await late_v2.close()
            v2_messages.extend(late_v2.log)
            await viewer.wait_for(lambda m: m.type == "finished", timeout=10)
            await late.close()  # the count changes after the draw: a presence
            await viewer.wait_for(lambda m: m.type == "presence", timeout=5)

            data_source.set_status(USERS, 500)
            await viewer.send_json({"type": "start", "hostKey": server.lobby_key})
            await viewer.wait_for(lambda m: m.type == "failed", timeout=10)
            data_source.reset()

            await viewer.send_json({"type": "start", "hostKey": server.lobby_key})
            await viewer.wait_for(lambda m: m.type == "round", timeout=10)
            server.signal(signal.SIGTERM)  # drain, then abort: the second signal
            # The second signal only aborts once the first one is draining: wait until it says so.
            await asyncio.to_thread(http.wait_health, server, 503)
            server.signal(signal.SIGTERM)
            closed, _ = await viewer.expect_close(timeout=10)
            assert closed.code in contracts.close_codes()
        finally:
            await close_all([c for c in (viewer, late) if c])
        return viewer.log + viewer.heartbeats + (late.log if late else []) + v2_messages + rooms_log

    messages = run(scenario(), timeout=60)
    problems = [p for m in messages for p in contracts.message_errors(m.data)]
    assert not problems, "\n".join(problems)
    seen = {m.type for m in messages}
    assert seen >= contracts.operation_messages("receive"), contracts.operation_messages("receive") - seen
    running = [m for m in messages if m.type == "snapshot" and m["draw"] and m["draw"]["phase"] == "running"]
    assert running, "no snapshot of a running draw was validated"


# -- issue 31, finding 9: where the document and the server disagreed ----------------------------

def _secured_operations() -> list[tuple[str, str]]:
    doc = contracts.load("openapi.yaml")
    return sorted((method.upper(), template) for template, item in doc["paths"].items()
                  for method, op in item.items() if isinstance(op, dict) and op.get("security"))


def test_a_missing_key_is_401_before_the_type_and_the_room(shared_server):
    """Every operation the document secures answers a request without a key 401, whatever else
    is wrong with it (no Content-Type: was 415; a room that does not exist: was 404)."""
    secured = _secured_operations()
    assert len(secured) == 11, secured
    for method, template in secured:
        for room in ("lobby", "no-such-room"):
            resp = http.request(shared_server, method, template.replace("{room}", room))
            assert resp.status == 401 and resp.error_code() == "unauthorized", (method, template, room, resp.status)


def test_a_null_name_is_documented_and_generates_one(shared_server):
    body = {"name": None}
    assert not contracts.errors("openapi.yaml", "#/components/schemas/CreateRoomRequest", body)
    resp = http.request(shared_server, "POST", "/api/rooms", body=body, headers=JSON, may_carry_key=True)
    assert resp.status == 201, resp.body
    keys.register(resp.json["hostKey"])
    assert not contracts.errors("openapi.yaml", "#/components/schemas/RoomCreated", resp.json)


def test_an_empty_cursor_is_refused_by_both(shared_server):
    assert contracts.errors("openapi.yaml", "#/components/schemas/DrawCursor", "")
    assert contracts.errors("openapi.yaml", "#/components/schemas/DrawCursor", "042")
    for cursor in ("", "042", "0"):
        resp = http.request(shared_server, "GET", f"/api/rooms/lobby/draws?cursor={cursor}")
        assert resp.status == 400 and resp.error_code() == "bad_cursor", (cursor, resp.status, resp.body)


def test_settings_bounds_in_the_schema_are_the_servers(shared_server):
    """Each member's `minimum`/`maximum` in RoomSettingsRequest is exactly what a default server
    takes: the bounds are accepted, one past them is 422 invalid_settings."""
    room = http.created_room(shared_server, "contract-bounds")
    schema = contracts.load("openapi.yaml")["components"]["schemas"]["RoomSettingsRequest"]["properties"]
    path = "/api/rooms/contract-bounds/settings"
    for member, bounds in schema.items():
        if "maxLength" in bounds:
            # A text member (title, prize): its longest is taken, one code point more is not.
            cases = (("é" * bounds["maxLength"], 200), ("é" * (bounds["maxLength"] + 1), 422))
        else:
            assert "minimum" in bounds and "maximum" in bounds, member
            cases = ((bounds["minimum"], 200), (bounds["maximum"], 200),
                     (bounds["minimum"] - 1, 422), (bounds["maximum"] + 1, 422))
        for value, status in cases:
            got = http.api(shared_server, "PUT", path, {member: value}, key=room["hostKey"])
            assert got[0] == status, (member, value, got)
            assert bool(contracts.errors("openapi.yaml", "#/components/schemas/RoomSettingsRequest",
                                         {member: value})) == (status == 422), (member, value)
