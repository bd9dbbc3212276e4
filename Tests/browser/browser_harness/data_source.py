"""The player lists the server draws from, served over HTTP by the test so each test controls
who is in the lottery (void entries, empty lists, failing sources)."""
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USERS = [
    {"userId": 10, "name": "Jack Alexy", "username": "JAlex", "regDate": "2020-10-19"},
    {"userId": 22, "name": "Mr. Hashemi", "username": "Hashaaa", "regDate": "2019-08-19"},
    {"userId": 4, "name": "Mack", "username": "mackMack13", "regDate": "2018-10-02"},
    {"userId": 18, "name": "Pack", "username": "packPackDom", "regDate": "2018-04-12"},
    {"userId": 182, "name": "Mohsen", "username": "AghaMohsen", "regDate": "2020-04-12"},
]
# Nobody void: every draw has a winner unless a test says otherwise.
WINNERS_ONLY = [{"userId": u, "void": False} for u in (10, 22, 4, 18)]
ONLY_VOID = [{"userId": 182, "void": True}]


class DataSource:
    """`users_url` and `lottery_url` for the server; `lottery` and `status` are per test."""

    def __init__(self):
        self.lottery = list(WINNERS_ONLY)
        self.status = 200
        source = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                bodies = {"/users.json": {"items": USERS}, "/lottery.json": {"lotteryList": source.lottery}}
                body = bodies.get(self.path)
                status = 404 if body is None else source.status
                data = json.dumps(body if status == 200 else {"error": "unavailable"}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass  # quiet: the server's own log tells what it fetched

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        base = f"http://127.0.0.1:{self._httpd.server_port}"
        self.users_url = base + "/users.json"
        self.lottery_url = base + "/lottery.json"

    def reset(self):
        self.lottery = list(WINNERS_ONLY)
        self.status = 200

    def close(self):
        self._httpd.shutdown()
        self._httpd.server_close()
