"""Fixtures of the fuzz suite: the e2e suite's own (server launcher, player lists, leak check).

Why load Tests/e2e/conftest.py by path: its fixtures start and stop servers with the e2e suite's
defaults (through Tests/e2e/helpers: the CLI's spelling in cli.py, the launcher in launcher.py);
the fuzz suite must drive the binary exactly as the e2e suite does, not through a copy that drifts. It is loaded under
another module name because this file is `conftest` too (see scripts/test-python.sh).
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))   # for `helpers`
from helpers.suite import e2e_conftest as _load_e2e  # noqa: E402

e2e_conftest = _load_e2e()
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Re-exported fixtures: pytest finds them as attributes of this conftest.
data_source = e2e_conftest.data_source
public_dir = e2e_conftest.public_dir
launch = e2e_conftest.launch
no_host_key_leaks = e2e_conftest.no_host_key_leaks

from fuzzkit.config import FuzzConfig  # noqa: E402

_SUMMARIES = []


@pytest.fixture
def fuzz_config():
    """Seed and budget from LIVE_DRAW_FUZZ_* (fuzzkit/config.py); a fresh random seed if unset."""
    return FuzzConfig.from_env()


@pytest.fixture
def fuzz_summary():
    """Tests add a line here; it is printed at the end of the run, so a green run shows its seed."""
    return _SUMMARIES.append


def pytest_terminal_summary(terminalreporter):
    for line in _SUMMARIES:
        terminalreporter.write_line(line)
