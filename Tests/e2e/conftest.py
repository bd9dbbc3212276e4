"""Fixtures of the end-to-end suite: the real live-draw binary, the player-list server, the leak check.

Everything that depends on how the CLI is spelled lives in the block below (binary path, option
flags, the two startup-log regexes), so adapting the suite to the real CLI is a one-place edit.
"""
import os
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import keys  # noqa: E402
from helpers.datasource import LOTTERY, USERS, DataSource  # noqa: E402
from helpers.server import LaunchSpec, ServerProcess  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

# ---- the CLI, in one place -------------------------------------------------------------------
LIVE_DRAW_BIN = os.environ.get("LIVE_DRAW_BIN") or str(REPO / ".build" / "debug" / "live-draw")

# Logical option name -> flag. Each is also settable as LIVE_DRAW_<UPPER_SNAKE> by the server,
# but the suite always passes flags explicitly (and strips LIVE_DRAW_* from the child's env).
LIVE_DRAW_OPTIONS = {
    name: "--" + name.replace("_", "-") for name in (
        "host", "port", "public_dir", "users_url", "lottery_url", "round_interval_ms",
        "fetch_connect_timeout_ms", "fetch_timeout_ms", "fetch_max_bytes", "max_message_bytes",
        "outbound_queue", "close_timeout_seconds", "max_connections", "allowed_origins", "tls_cert", "tls_key", "log_level",
        "loading_notice_ms", "head_timeout_ms", "slow_heads_per_address", "max_rooms", "room_idle_seconds",
        "room_creation_burst", "room_creation_per_minute",
    )
}

# "listening on http://127.0.0.1:54321" and a host link ".../?room=lobby#key=<48 hex>".
LISTENING_RE = re.compile(r"listening on https?://(?P<host>\[[^\]]*\]|[^\s:/]+):(?P<port>\d+)")
HOST_KEY_RE = re.compile(r"/\?room=lobby#key=(?P<key>[0-9a-f]{48})\b")

# Round interval for most tests: short, so the suite is fast, but long enough that a round's
# fan-out to 50 local clients fits comfortably inside one interval.
DEFAULT_INTERVAL_MS = 50
# How late a round's sentAt may be versus startedAt + offset (a debug build on 2 cores, shared
# with 50 Python clients). Override with LIVE_DRAW_E2E_LATE_MS on a slow machine.
LATE_MS = float(os.environ.get("LIVE_DRAW_E2E_LATE_MS", "120"))
# -----------------------------------------------------------------------------------------------


def _serve_lists():
    ds = DataSource()
    ds.listen()
    return ds


def _make_public_dir(base: Path) -> Path:
    pub = base / "public"
    pub.mkdir()
    (pub / "index.html").write_text("<!doctype html><title>live-draw e2e</title>INDEX-MARKER\n")
    return pub


class _Launcher:
    """Starts servers with the suite's defaults; stops every one of them at teardown."""

    def __init__(self, data_source: DataSource, public_dir: Path):
        self.data_source, self.public_dir, self.started = data_source, public_dir, []

    def __call__(self, _prefix=None, **opts) -> ServerProcess:
        """`_prefix`: a command the binary runs under (see LaunchSpec.prefix)."""
        base = {
            "host": "127.0.0.1",
            "port": 0,
            "public_dir": str(self.public_dir),
            "users_url": self.data_source.url(USERS),
            "lottery_url": self.data_source.url(LOTTERY),
            "round_interval_ms": DEFAULT_INTERVAL_MS,
            # Most tests follow a draw from its `loading`; pass None to get the server's default
            # (hold `loading` back), as test_sources.py's loading-notice tests do.
            "loading_notice_ms": 0,
        }
        base.update(opts)
        spec = LaunchSpec(binary=LIVE_DRAW_BIN, options=LIVE_DRAW_OPTIONS,
                          listening_re=LISTENING_RE, host_key_re=HOST_KEY_RE, prefix=list(_prefix or []))
        srv = ServerProcess(spec, base)
        self.started.append(srv)
        return srv.start()

    def stop_all(self) -> None:
        for srv in self.started:
            srv.stop()
            # Shown by pytest only when the test failed: the server's side of the story.
            print(f"---- live-draw log ({' '.join(srv.argv)}) ----\n{srv.log_text()}")


@pytest.fixture
def data_source():
    """The two player lists over HTTP on 127.0.0.1 (seed data unless a test changes it)."""
    ds = _serve_lists()
    yield ds
    ds.stop_listening()


@pytest.fixture
def public_dir(tmp_path):
    """A small public folder, so static tests never depend on the repo's page."""
    return _make_public_dir(tmp_path)


@pytest.fixture
def launch(data_source, public_dir):
    """Factory: start a live-draw with the given options (logical names); stopped at teardown."""
    launcher = _Launcher(data_source, public_dir)
    yield launcher
    launcher.stop_all()


@pytest.fixture
def server(launch):
    """A live-draw of its own for this test, with the default test options."""
    return launch()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    """One live-draw for a module's stateless checks (each uses its own room names, runs no draw).

    Why: dozens of one-request tests do not need a process each; sharing keeps the suite fast.
    """
    ds = _serve_lists()
    launcher = _Launcher(ds, _make_public_dir(tmp_path_factory.mktemp("shared")))
    # A module's tests all create rooms from 127.0.0.1; the per-address budget has tests of its
    # own (test_room_limits.py) and must not make these depend on how many there are.
    yield launcher(room_creation_burst=100_000)
    launcher.stop_all()
    ds.stop_listening()


@pytest.fixture(autouse=True)
def no_host_key_leaks():
    """Fail any test during which a host key showed up in a WS message or a non-creation body."""
    keys.take_violations()
    yield
    leaks = keys.take_violations()
    assert not leaks, "host key leaked:\n" + "\n".join(leaks)
