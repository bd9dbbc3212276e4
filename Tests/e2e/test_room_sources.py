"""A room's list fetched from URLs its host gave (issue 15): `PUT /api/rooms/ROOM/entrants` with
`{"usersUrl","lotteryUrl"}`, allowed only on the operator's `--allowed-source-hosts`, http(s)
only, and never to a private or loopback address without `--allow-private-sources`.

Which refusal comes when (docs/PROTOCOL.md §5.6): what the URL itself says is checked at upload
(`source_urls_off` 403, `source_url_invalid`, `source_host_not_allowed`, and
`source_address_refused` for a literal internal address, each 422); where a name resolves, and
where a redirect leads, only the draw can know: it fails with `failed` `source_refused`. A redirect
to an internal address behind an allowed public host is tested in Swift (`RoomSourceFetchTests`),
where a loopback server can stand in for a public one.

Real processes and real HTTP servers on ephemeral ports.
"""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from helpers import http
from helpers.datasource import LOTTERY, USERS
from helpers.rooms import put_entrants, room_snapshot, run_draw


def _room(srv, name):
    return http.created_room(srv, name)["hostKey"]


def _failure_code(record):
    return record.get("failureCode") or (record.get("failure") or {}).get("code")


@pytest.fixture
def redirector():
    """An HTTP server on 127.0.0.1 that answers every GET with 302 to `target` (set by the test)."""
    state = {"target": "http://169.254.169.254/latest/meta-data", "hits": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            state["hits"] += 1
            self.send_response(302)
            self.send_header("Location", state["target"])
            self.send_header("Content-Length", "0")
            self.end_headers()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    state["url"] = f"http://127.0.0.1:{httpd.server_address[1]}/users.json"
    yield state
    httpd.shutdown()
    httpd.server_close()


def test_a_room_draws_from_its_urls_on_an_allowed_host(launch, data_source):
    srv = launch(allowed_source_hosts="127.0.0.1", allow_private_sources=True)
    key = _room(srv, "urls")
    urls = {"usersUrl": data_source.url(USERS), "lotteryUrl": data_source.url(LOTTERY)}
    resp = put_entrants(srv, "urls", key, urls)
    assert resp.status == 200, resp.body
    assert resp.json == {"room": "urls", **urls}
    assert room_snapshot(srv, "urls")["entrants"] is None  # fetched when a draw starts
    hits = dict(data_source.hits)
    record = run_draw(srv, "urls", key)
    assert record["status"] == "finished", record
    assert record["sources"] == urls
    assert data_source.hits[USERS] == hits[USERS] + 1 and data_source.hits[LOTTERY] == hits[LOTTERY] + 1
    # Kept with the room: after a restart it still draws from them.
    srv.stop()
    srv.restart()
    assert run_draw(srv, "urls", key)["sources"] == urls


def test_room_urls_are_off_unless_the_operator_lists_hosts(server, data_source):
    key = _room(server, "off")
    resp = put_entrants(server, "off", key, {"usersUrl": data_source.url(USERS), "lotteryUrl": data_source.url(LOTTERY)})
    assert resp.status == 403 and resp.error_code() == "source_urls_off", resp.body


def test_a_host_not_listed_is_refused_at_upload(launch, data_source):
    srv = launch(allowed_source_hosts="lists.example.com", allow_private_sources=True)
    key = _room(srv, "unlisted")
    resp = put_entrants(srv, "unlisted", key, {"usersUrl": data_source.url(USERS), "lotteryUrl": data_source.url(LOTTERY)})
    assert resp.status == 422 and resp.error_code() == "source_host_not_allowed", resp.body
    assert "127.0.0.1 is not a host" in str(resp.body), resp.body


def test_loopback_is_refused_without_the_explicit_allowance_even_when_listed(launch, data_source):
    srv = launch(allowed_source_hosts="127.0.0.1,localhost")
    key = _room(srv, "private")
    # A literal address: refused at upload.
    resp = put_entrants(srv, "private", key, {"usersUrl": data_source.url(USERS), "lotteryUrl": data_source.url(LOTTERY)})
    assert resp.status == 422 and resp.error_code() == "source_address_refused", resp.body
    # A name: accepted (its addresses are only known when the draw connects), and the draw fails.
    by_name = {name: data_source.url(name).replace("127.0.0.1", "localhost") for name in (USERS, LOTTERY)}
    hits = dict(data_source.hits)
    resp = put_entrants(srv, "private", key, {"usersUrl": by_name[USERS], "lotteryUrl": by_name[LOTTERY]})
    assert resp.status == 200, resp.body
    record = run_draw(srv, "private", key)
    assert record["status"] == "failed" and _failure_code(record) == "source_refused", record
    assert data_source.hits == hits, "the list server was never contacted"


def test_a_redirect_to_a_host_not_listed_is_refused(launch, data_source, redirector):
    srv = launch(allowed_source_hosts="127.0.0.1", allow_private_sources=True, fetch_redirects="any")
    key = _room(srv, "redirected")
    resp = put_entrants(srv, "redirected", key, {"usersUrl": redirector["url"], "lotteryUrl": data_source.url(LOTTERY)})
    assert resp.status == 200, resp.body
    record = run_draw(srv, "redirected", key)
    assert record["status"] == "failed" and _failure_code(record) == "source_refused", record
    assert redirector["hits"] == 1


def test_file_urls_and_other_schemes_are_never_a_rooms(launch):
    # The operator's own lists are file:// (the bundled defaults): a room's may still not be.
    srv = launch(allowed_source_hosts="127.0.0.1,localhost", allow_private_sources=True)
    key = _room(srv, "schemes")
    for url in ("file:///etc/passwd", "file://localhost/etc/passwd", "ftp://127.0.0.1/users.json", "gopher://127.0.0.1/"):
        resp = put_entrants(srv, "schemes", key, {"usersUrl": url, "lotteryUrl": "http://127.0.0.1/l.json"})
        assert resp.status == 422 and resp.error_code() == "source_url_invalid", (url, resp.body)
    resp = put_entrants(srv, "schemes", key, {"usersUrl": "http://127.0.0.1/u.json"})
    assert resp.status == 422 and resp.error_code() == "source_url_invalid", resp.body
