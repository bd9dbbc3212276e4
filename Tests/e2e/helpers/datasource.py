"""The two player lists, served by the tests themselves over real HTTP.

Why not static files: the failure tests need the lists to fail in every way a real upstream can
(an error status, a refused connection, a hang past the fetch timeout, broken or wrong-shaped
JSON, too many bytes) and then recover for the next draw, all without restarting live-draw,
whose URLs are fixed at startup. The port stays the same across `stop_listening`/`listen` so
"refused" can be produced and then cured. The browser suite serves its lists with this class too,
with defaults of its own (nobody void, so every draw has a winner unless a test says otherwise).
"""
import json
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

from .seed import SEED_LOTTERY, SEED_USERS

USERS = "users"
LOTTERY = "lottery"
PATHS = {USERS: "/users.json", LOTTERY: "/lottery.json"}


@dataclass
class Route:
    """How one list answers right now."""
    body: bytes
    status: int = 200
    content_type: str = "application/json"
    delay: float = 0.0       # seconds to wait before answering
    hang: bool = False       # never answer (until the source is stopped)
    held: bool = False       # answer normally, but only once the test calls release()
    hold_next: int = 0       # like `held`, for this many more requests only; later ones answer at once


class DataSource:
    """A threaded HTTP server on 127.0.0.1 playing the users list and the lottery list."""

    HANG_LIMIT = 30.0  # a hung handler gives up on its own after this, whatever happens

    def __init__(self, users=SEED_USERS, lottery=SEED_LOTTERY):
        """`users`, `lottery`: the lists (JSON-able) served until a test changes them, and again
        after reset()."""
        self._defaults = {USERS: users, LOTTERY: lottery}
        self.routes: dict[str, Route] = {}
        self.hits: dict[str, int] = {USERS: 0, LOTTERY: 0}
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._unhold = threading.Event()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None
        self.port: Optional[int] = None
        self.reset()

    # -- behaviour -------------------------------------------------------------------------

    def reset(self) -> None:
        """Back to the default lists (the seed lists unless the constructor was given others),
        answering at once."""
        for name, obj in self._defaults.items():
            self.set_json(name, obj)

    def set_json(self, name: str, obj) -> None:
        self.set_raw(name, json.dumps(obj).encode("utf-8"))

    def set_raw(self, name: str, body: bytes, status: int = 200, content_type: str = "application/json") -> None:
        with self._lock:
            self.routes[name] = Route(body=body, status=status, content_type=content_type)

    def set_status(self, name: str, status: int) -> None:
        self.set_raw(name, b'{"error":"upstream trouble"}', status=status)

    def set_delay(self, name: str, seconds: float) -> None:
        with self._lock:
            self.routes[name].delay = seconds

    def set_hang(self, name: str) -> None:
        with self._lock:
            self.routes[name].hang = True

    def hold(self, name: str) -> None:
        """Keep requests for `name` waiting until `release()`, then answer them normally: a load
        that lasts exactly as long as the test needs, instead of a delay that is hopefully long
        enough."""
        with self._lock:
            self._unhold.clear()
            self.routes[name].held = True

    def hold_next(self, name: str, count: int) -> None:
        """Hold only the next `count` requests for `name` until `release()`; the ones after them
        answer at once: a source that is slow for some draws and not for others."""
        with self._lock:
            self._unhold.clear()
            self.routes[name].hold_next = count

    def release(self) -> None:
        """Let every held request answer (and later ones answer at once)."""
        with self._lock:
            for route in self.routes.values():
                route.held = False
                route.hold_next = 0
        self._unhold.set()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}{PATHS[name]}"

    # -- lifecycle -------------------------------------------------------------------------

    def listen(self) -> None:
        """Start serving (on the previous port if there was one, so live-draw's URLs stay valid)."""
        assert self._httpd is None
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_GET(self):
                owner._serve(self)

        self._release.clear()
        server = ThreadingHTTPServer(("127.0.0.1", self.port or 0), Handler)
        server.daemon_threads = True
        self._httpd = server
        self.port = server.server_address[1]
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    def stop_listening(self) -> None:
        """Close the listening socket: fetches now get 'connection refused'. Releases hung and held handlers."""
        self._release.set()
        self._unhold.set()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread:
            self._thread.join(5)
            self._thread = None

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        name = next((n for n, p in PATHS.items() if handler.path.split("?")[0] == p), None)
        if name is None:
            handler.send_error(404)
            return
        with self._lock:
            self.hits[name] += 1
            route = self.routes[name]
            held = route.held or route.hold_next > 0
            if route.hold_next > 0:
                route.hold_next -= 1
        if route.hang:
            self._release.wait(self.HANG_LIMIT)
            handler.close_connection = True
            return
        if held:
            self._unhold.wait(self.HANG_LIMIT)
        if route.delay:
            time.sleep(route.delay)
        handler.send_response(route.status)
        handler.send_header("Content-Type", route.content_type)
        handler.send_header("Content-Length", str(len(route.body)))
        handler.end_headers()
        try:
            handler.wfile.write(route.body)
        except (BrokenPipeError, ConnectionResetError):
            pass
