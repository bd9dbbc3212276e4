"""Fixtures of the cluster soak (issue 44): the e2e suite's player-list server and launcher
(loaded by path, as Tests/cluster-faults does: this file is `conftest` too), and the fault
suite's folder on the path for its recording viewer and checker."""
import sys
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(_TESTS / "e2e"))              # for `helpers`
sys.path.insert(0, str(_TESTS / "cluster-faults"))   # cluster.py, checker.py (imported, not changed)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers.suite import e2e_conftest as _load_e2e  # noqa: E402

e2e_conftest = _load_e2e()

data_source = e2e_conftest.data_source
public_dir = e2e_conftest.public_dir


@pytest.fixture
def launch(data_source, public_dir):
    """Nodes with their logs printed for a failed run; SIGKILL 1 s after the final SIGTERM (the
    soak's own restarts wait for the drain themselves)."""
    from helpers.launcher import Launcher
    launcher = Launcher(data_source, public_dir, stop_grace=1.0)
    yield launcher
    launcher.stop_all()
