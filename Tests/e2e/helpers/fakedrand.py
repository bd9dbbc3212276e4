"""A drand HTTP relay played by the tests (docs/FAIRNESS.md section 9), so nothing needs the internet.

It serves one fixed chain: `GET /{hash}/info` and `GET /{hash}/public/{round}` (and `latest`),
with drand's JSON shapes. Round R is published at genesis + (R - 1) * period, like a real chain:
asked earlier it answers 425 Too Early, as relays do. Each round's signature is fixed bytes
derived from its number (48 bytes, quicknet's length; not a real BLS signature) and its
randomness is SHA-256 of the signature, so a verifier can recompute both.

Modes (`mode`), for the fault tests:
  ok       - as above;
  down     - the port refuses connections (the listener is closed);
  slow     - every round answers only after `slow_seconds`;
  garbage  - rounds answer 200 with a body that is not a drand round;
  forged   - rounds answer with randomness that is not SHA-256 of the signature;
  huge     - rounds answer a valid round padded past the client's 64 KiB limit.
`info` answers in every mode but `down`, so the server can start. `lag_seconds` makes the relay
late, as real relays are: a round it serves only that long after its time (425 until then).
"""
import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional

import pytest

# The test chain's hash: any 64 hex characters identify a chain to live-draw.
CHAIN_HASH = hashlib.sha256(b"live-draw fake drand chain").hexdigest()
PERIOD = 1  # seconds


def signature_of(round_number: int) -> bytes:
    return hashlib.sha512(f"live-draw fake drand round {round_number}".encode()).digest()[:48]


def randomness_of(round_number: int) -> bytes:
    return hashlib.sha256(signature_of(round_number)).digest()


class FakeDrand:
    """A threaded HTTP server on 127.0.0.1 playing one drand chain."""

    def __init__(self, genesis: Optional[int] = None, period: int = PERIOD, chain_hash: str = CHAIN_HASH):
        # A genesis a little in the past, so round numbers are small and the next round is near.
        self.genesis = genesis if genesis is not None else int(time.time()) - 60
        self.period = period
        self.chain_hash = chain_hash
        self.info_hash = chain_hash  # what `info` claims; a test sets another to mismatch
        self.mode = "ok"
        self.slow_seconds = 30.0
        self.lag_seconds = 0.0
        self.requests: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self.port: Optional[int] = None

    # -- the chain -----------------------------------------------------------------------------

    def round_time(self, r: int) -> float:
        return self.genesis + (r - 1) * self.period

    def round_json(self, r: int) -> dict:
        return {"round": r, "randomness": randomness_of(r).hex(), "signature": signature_of(r).hex()}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def info_json(self) -> dict:
        return {"public_key": "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
                "period": self.period, "genesis_time": self.genesis, "hash": self.info_hash,
                "groupHash": "0" * 64, "schemeID": "bls-unchained-g1-rfc9380", "metadata": {"beaconID": "fake"}}

    # -- serving -------------------------------------------------------------------------------

    def listen(self) -> None:
        """Starts (or restarts, on the same port) serving."""
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                with fake._lock:
                    fake.requests.append(self.path)
                parts = self.path.strip("/").split("/")
                if len(parts) == 2 and parts == [fake.chain_hash, "info"]:
                    return self._json(200, fake.info_json())
                if len(parts) != 3 or parts[0] != fake.chain_hash or parts[1] != "public":
                    return self._json(404, {"error": "unknown path"})
                now = time.time()
                if parts[2] == "latest":
                    r = max(1, int((now - fake.genesis) // fake.period) + 1)
                else:
                    try:
                        r = int(parts[2])
                    except ValueError:
                        return self._json(400, {"error": "bad round"})
                    if r < 1 or fake.round_time(r) + fake.lag_seconds > now:
                        return self._json(425, {"error": "round not published yet"})
                if fake.mode == "slow":
                    fake._stop.wait(fake.slow_seconds)
                if fake.mode == "garbage":
                    return self._raw(200, b"<html>this is not drand</html>")
                body = fake.round_json(r)
                if fake.mode == "forged":
                    body["randomness"] = hashlib.sha256(b"forged").hexdigest()
                if fake.mode == "huge":
                    body["padding"] = "x" * (64 << 10)
                return self._json(200, body)

            def _json(self, status, obj):
                self._raw(status, json.dumps(obj).encode())

            def _raw(self, status, body):
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass

        self._stop.clear()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", self.port or 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def stop_listening(self) -> None:
        """Closes the port (mode `down`): connections are refused until `listen` again."""
        self._stop.set()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def set_mode(self, mode: str) -> None:
        if mode == "down":
            self.stop_listening()
        elif self._httpd is None:
            self.listen()
        self.mode = mode

    def round_fetches(self) -> list[int]:
        """The round numbers asked for so far, in order."""
        with self._lock:
            return [int(p.rsplit("/", 1)[1]) for p in self.requests if "/public/" in p and p.rsplit("/", 1)[1].isdigit()]


@pytest.fixture
def drand():
    """A fake relay of its own for the test (import this fixture into a test module to use it)."""
    fake = FakeDrand()
    fake.listen()
    yield fake
    fake.stop_listening()
