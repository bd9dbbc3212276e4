"""Tests/e2e/conftest.py for the suites that drive the binary exactly as the e2e suite does
(Tests/fuzz, Tests/cluster-faults), loaded by path once under another module name: each of
those suites' own file is `conftest` too (see scripts/test-python.sh)."""
import importlib.util
import sys
from pathlib import Path

_E2E = Path(__file__).resolve().parents[1]


def e2e_conftest():
    """The e2e suite's conftest module (its fixtures: launcher, player lists, leak check)."""
    if "e2e_conftest" in sys.modules:
        return sys.modules["e2e_conftest"]
    spec = importlib.util.spec_from_file_location("e2e_conftest", _E2E / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["e2e_conftest"] = module
    spec.loader.exec_module(module)
    return module
