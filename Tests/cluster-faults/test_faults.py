"""The cluster fault suite (issue 27): each fault, seeded, against three real nodes and a real
redis-server, then the checker. One run per fault unless CHAOS_RUNS says more (`make chaos`);
CHAOS_SEED replays one. See README.md.
"""
import os

import pytest

from conftest import RESULTS, seeds
from run import run_fault
from scenarios import FAULTS, LONG_FAULTS


def _params():
    out = []
    # The long faults (the nemesis: minutes a run) only in the long form: `make chaos` sets
    # CHAOS_RUNS, `make test` does not; CHAOS_SEED replays one with -k.
    long = list(LONG_FAULTS) if os.environ.get("CHAOS_RUNS") or os.environ.get("CHAOS_SEED") else []
    for fault in list(FAULTS) + long:
        for seed in seeds():
            out.append(pytest.param(fault, seed, id=f"{fault}-{seed}"))
    return out


@pytest.mark.parametrize("fault,seed", _params())
def test_fault_keeps_every_promise(fault, seed, launch, data_source):
    res = run_fault(fault, seed, launch, data_source)
    rules = [str(r) for r in sorted({v.rule for v in res.violations})] + (["stall"] if res.notes else [])
    RESULTS[fault].append((seed, res.ok, rules))
    assert res.ok, res.report()
