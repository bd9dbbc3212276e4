"""Fixtures of the browser tests: the player-list source, the real server, Chromium pages.

Run: python3 -m pytest Tests/browser  (after `swift build`; see README section "Browser tests").
"""
import signal

import pytest

from .browser_harness.data_source import DataSource
from .browser_harness.pages import DESKTOP, DrawPage, new_driver
from .browser_harness.server import ARTIFACTS, LiveDrawServer


@pytest.fixture(scope="session")
def source():
    src = DataSource()
    yield src
    src.close()


@pytest.fixture(autouse=True)
def default_lottery(source):
    """Each test starts from the default lists, whatever the previous one served."""
    source.reset()


def _server(source, **options):
    # Every server records draws (into its own temp data dir), as it does in production.
    srv = LiveDrawServer(source, ARTIFACTS / "logs", **options)
    srv.start()
    return srv


@pytest.fixture(scope="session")
def server(source):
    """Shared by the tests that leave it running; 100 ms rounds keep a draw about one second."""
    srv = _server(source)
    yield srv
    srv.close()


@pytest.fixture
def server_factory(source):
    """Servers of a test's own, e.g. to kill and restart them, or with slower rounds."""
    started = []

    def make(**options):
        srv = _server(source, **options)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.close(signal.SIGKILL)


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
