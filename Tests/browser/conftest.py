"""Fixtures of the browser tests: the player-list source, the real server, Chromium pages.

Run: python3 -m pytest Tests/browser  (after `swift build`; see README section "Browser tests").

The server launcher and the player-list source are the e2e suite's (Tests/e2e/helpers: the CLI's
spelling in cli.py, Launcher, ServerProcess, DataSource), imported from there, not copied, so
the two suites cannot drift apart. `helpers` is a plain top-level package on sys.path, as in the
e2e and fuzz runs; scripts/test-python.sh runs each suite in a pytest run of its own.
"""
import signal
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))

from helpers.datasource import DataSource  # noqa: E402
from helpers.launcher import Launcher  # noqa: E402
from helpers.seed import SEED_USERS  # noqa: E402

from .browser_harness import axe  # noqa: E402
from .browser_harness.lists import WINNERS_ONLY, lottery  # noqa: E402
from .browser_harness.pages import DESKTOP, DrawPage, new_driver  # noqa: E402
from .browser_harness.paths import ARTIFACTS, PUBLIC_DIR  # noqa: E402

# A clean shutdown may take a few seconds (pages closing, the draw record finished): a server
# stopped with SIGTERM gets this long before it is killed.
STOP_GRACE_S = 10


@pytest.fixture(scope="session")
def source():
    src = DataSource(users=SEED_USERS, lottery=lottery(WINNERS_ONLY))
    src.listen()
    yield src
    src.stop_listening()


@pytest.fixture(autouse=True)
def default_lottery(source):
    """Each test starts from the default lists, whatever the previous one served."""
    source.reset()


def _launcher(source):
    """Every server records draws (into its own temp data dir, kept across restart()), as it
    does in production, and leaves its log in artifacts/logs."""
    return Launcher(source, PUBLIC_DIR, stop_grace=STOP_GRACE_S, log_dir=ARTIFACTS / "logs", defaults={
        # 100 ms rounds keep a draw about one second.
        "round_interval_ms": 100,
        # `loading` at once, so the page's loading phase shows on every draw; holding it back
        # (the default) is covered by the e2e suite and the Swift tests.
        "loading_notice_ms": 0,
        "log_level": "info",
    })


@pytest.fixture(scope="session")
def server(source):
    """Shared by the tests that leave it running."""
    launcher = _launcher(source)
    yield launcher()
    launcher.stop_all()


@pytest.fixture
def server_factory(source):
    """Servers of a test's own, e.g. to kill and restart them, or with slower rounds."""
    launcher = _launcher(source)
    yield launcher
    launcher.stop_all(signal.SIGKILL)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.failed_call = report.failed
    return report


@pytest.fixture
def open_page(request, server):
    """open_page(room, key, size=..., server=...) → a DrawPage in its own Chromium, connected."""
    drivers = []

    def open_(room="lobby", key=None, size=DESKTOP, server=server):
        driver = new_driver(size)
        drivers.append(driver)
        return DrawPage(driver, server.base_url).open(room, key)

    yield open_
    if getattr(request.node, "failed_call", False):
        folder = ARTIFACTS / "failures"
        folder.mkdir(parents=True, exist_ok=True)
        for i, driver in enumerate(drivers):
            driver.save_screenshot(str(folder / f"{request.node.name}-{i}.png"))
    for driver in drivers:
        driver.quit()


def pytest_terminal_summary(terminalreporter):
    """The accessibility summary (test_axe.py): violations by impact per screen, shown on every
    run that audited something, and kept in artifacts/accessibility.txt."""
    if axe.RESULTS:
        terminalreporter.section("accessibility (axe-core): violations by impact per screen")
        for line in axe.summary_lines():
            terminalreporter.write_line(line)
        axe.write_report()
