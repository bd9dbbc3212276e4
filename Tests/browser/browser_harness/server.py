"""Runs the real live-draw binary for the browser tests.

Everything that depends on the server's command line lives here, so adjusting to it is one edit:
the binary's path, its options, and the two startup lines the tests read.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
BINARY = Path(os.environ.get("LIVE_DRAW_BIN", REPO / ".build" / "debug" / "live-draw"))
PUBLIC_DIR = REPO / "public"
ARTIFACTS = REPO / "artifacts"  # screenshots, server logs, failure shots; not committed
LISTENING = re.compile(r"listening on http://([^:]+):(\d+)")
LOBBY_KEY = re.compile(r"#key=([0-9a-f]{48})")
STARTUP_TIMEOUT_S = 20
STOP_TIMEOUT_S = 10


class ServerError(RuntimeError):
    pass


class LiveDrawServer:
    """One server process at a time; `restart` brings a new one up on the same port."""

    def __init__(self, source, log_dir, round_interval_ms=100, data_dir=None):
        self.source = source
        self.round_interval_ms = round_interval_ms
        self.log_dir = Path(log_dir)
        self.process = None
        self.port = 0
        self.lobby_key = None
        self._starts = 0
        # Recording is on by default and a data dir is owned by one server (a file lock): each
        # server gets its own unless the test names one; a restart on the same port reuses it, as
        # a real restart would. A folder made here is removed by close().
        self._own_data_dir = data_dir is None
        self.data_dir = tempfile.mkdtemp(prefix="live-draw-browser-") if data_dir is None else data_dir

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def command(self, port):
        return [
            str(BINARY),
            "--host", "127.0.0.1",
            "--port", str(port),
            "--public-dir", str(PUBLIC_DIR),
            "--users-url", self.source.users_url,
            "--lottery-url", self.source.lottery_url,
            "--round-interval-ms", str(self.round_interval_ms),
            # `loading` at once, so the page's loading phase shows on every draw; holding it back
            # (the default) is covered by the e2e suite and the Swift tests.
            "--loading-notice-ms", "0",
            "--log-level", "info",
            "--data-dir", str(self.data_dir),
        ]

    def start(self, port=0):
        if not BINARY.exists():
            raise ServerError(f"no server binary at {BINARY}: run `swift build` or set LIVE_DRAW_BIN")
        self._starts += 1
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"server-{os.getpid()}-{id(self)}-{self._starts}.log", "w")
        self.process = subprocess.Popen(
            self.command(port), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        found = self._read_startup(log)
        host, self.port = found["host"], int(found["port"])
        self.lobby_key = found["key"]
        if host != "127.0.0.1":
            raise ServerError(f"server listens on {host}, expected 127.0.0.1")

    def _read_startup(self, log):
        """Reads the startup lines until port and lobby key are known, then drains the rest
        into the log file in the background so the pipe never fills."""
        found, lines = {}, []
        done = threading.Event()

        def pump():
            for line in self.process.stdout:
                log.write(line)
                log.flush()
                if not done.is_set():
                    lines.append(line)
                    if m := LISTENING.search(line):
                        found["host"], found["port"] = m.group(1), m.group(2)
                    if m := LOBBY_KEY.search(line):
                        found["key"] = m.group(1)
                    if len(found) == 3:
                        done.set()
            log.close()
            done.set()

        threading.Thread(target=pump, daemon=True).start()
        done.wait(STARTUP_TIMEOUT_S)
        if len(found) < 3:
            self.kill()
            raise ServerError("server did not announce its port and lobby key:\n" + "".join(lines))
        return found

    def stop(self, sig=signal.SIGTERM):
        """Stops the process with `sig` (SIGKILL for a crash) and waits for it to be gone."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(sig)
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(STOP_TIMEOUT_S)

    def close(self, sig=signal.SIGTERM):
        """Stops the server for good and removes its data dir."""
        self.stop(sig)
        self.kill()
        if self._own_data_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def restart_same_port(self, deadline_s=15):
        """Starts again on the old port; retries while the port is still held by the old socket."""
        port, end = self.port, time.monotonic() + deadline_s
        while True:
            try:
                self.start(port)
                return
            except ServerError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)  # bounded retry of a failed bind, not a wait on the page

    def api(self, method, path, body=None, key=None):
        """(status, parsed JSON) of an HTTP API call."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None or method == "POST":
            # Every API POST says it is JSON, even without a body: the server answers 415 otherwise.
            req.add_header("Content-Type", "application/json")
        if key is not None:
            req.add_header("Authorization", f"Bearer {key}")
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return res.status, json.loads(res.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def create_room(self, name=None):
        status, body = self.api("POST", "/api/rooms", {"name": name} if name else {})
        if status != 201:
            raise ServerError(f"creating a room answered {status}: {body}")
        return body
