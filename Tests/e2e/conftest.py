"""Fixtures of the end-to-end suite: the real live-draw binary, the player-list server, the leak check.

How the CLI is spelled (binary path, option flags, the two startup-log regexes) lives in
helpers/cli.py, shared with the fuzz and browser suites; the launcher in helpers/launcher.py.
"""
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import keys  # noqa: E402
from helpers.datasource import DataSource  # noqa: E402
from helpers.launcher import Launcher  # noqa: E402
from helpers.redis import RedisServer, launch_node  # noqa: E402

# ---- the suite's defaults --------------------------------------------------------------------
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


def _launcher(data_source: DataSource, public_dir: Path) -> Launcher:
    """Starts servers with the suite's defaults; stops every one of them at teardown."""
    return Launcher(data_source, public_dir, defaults={
        "round_interval_ms": DEFAULT_INTERVAL_MS,
        # Most tests follow a draw from its `loading`; pass None to get the server's default
        # (hold `loading` back), as test_sources.py's loading-notice tests do.
        "loading_notice_ms": 0,
    })


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
    launcher = _launcher(data_source, public_dir)
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
    launcher = _launcher(ds, _make_public_dir(tmp_path_factory.mktemp("shared")))
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


@pytest.fixture
def redis():
    """A redis-server of this test's own (cluster mode; skipped without redis-server)."""
    server = RedisServer()
    yield server
    server.close()


@pytest.fixture
def nodes(launch, redis):
    """Two live-draw nodes on one Redis, rounds 100 ms apart."""
    return [launch_node(launch, redis, round_interval_ms=100) for _ in range(2)]
