"""Fixtures of the cluster fault suite: the e2e suite's launcher and player-list server (loaded
by path, as Tests/fuzz does: this file is `conftest` too), and the per-fault summary that
`make chaos` prints."""
import os
import random
import sys
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))   # for `helpers`
from helpers.suite import e2e_conftest as _load_e2e  # noqa: E402

e2e_conftest = _load_e2e()
sys.path.insert(0, str(Path(__file__).resolve().parent))

data_source = e2e_conftest.data_source
public_dir = e2e_conftest.public_dir
no_host_key_leaks = e2e_conftest.no_host_key_leaks


@pytest.fixture
def launch(data_source, public_dir):
    """Nodes with their logs kept for a failed run; SIGKILL at teardown (no drain to wait for)."""
    from helpers.launcher import Launcher
    launcher = Launcher(data_source, public_dir, stop_grace=1.0)
    yield launcher
    launcher.stop_all()


def seeds() -> list:
    """CHAOS_SEED replays one run (of every fault, or of those -k selects); CHAOS_RUNS (1 unless
    set) runs that many fresh seeds per fault."""
    if os.environ.get("CHAOS_SEED"):
        return [int(os.environ["CHAOS_SEED"])]
    runs = int(os.environ.get("CHAOS_RUNS", "1"))
    base = random.SystemRandom()
    return [base.randrange(1, 10**9) for _ in range(runs)]


RESULTS = defaultdict(list)   # fault -> [(seed, ok, summary)]


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    tr = terminalreporter
    tr.section("cluster faults: per fault")
    for fault, runs in RESULTS.items():
        failed = [s for s, ok, _ in runs if not ok]
        tr.write_line(f"{fault:28s} passed {len(runs) - len(failed):3d} / {len(runs):3d}"
                      + (f"   failed seeds: {' '.join(map(str, failed))}" if failed else ""))
    broken = defaultdict(list)
    for fault, runs in RESULTS.items():
        for seed, ok, summary in runs:
            for rule in summary:
                broken[(fault, rule)].append(seed)
    if broken:
        tr.write_line("promises broken (fault, promise: seeds):")
        for (fault, rule), ss in sorted(broken.items()):
            tr.write_line(f"  {fault} promise {rule}: {' '.join(map(str, ss))}")
