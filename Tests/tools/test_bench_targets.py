"""The closing table of `make bench` (Benchmarks/bench_targets.py): a target past its limit is
reported as not met, and a target the run did not measure is named as such, never as met."""
import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def targets():
    spec = importlib.util.spec_from_file_location("bench_targets", REPO / "Benchmarks" / "bench_targets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)   # a fresh module each test: ROWS starts empty
    return module


def a_medians(p99, cpu, lost=0, rss=1.8):
    return {"lat_p99_ms": p99, "cpu_us_per_msg": cpu, "lost": lost, "rss_per_conn_kib": rss}


def row(lines, what):
    return next(line for line in lines if what in line)


def test_nothing_measured_prints_nothing(targets):
    assert targets.lines() == []


def test_scenario_a_ratios_against_reference_and_floor(targets):
    targets.scenario_a(10000, a_medians(90.0, 9.2), ref=a_medians(100.0, 9.5), floor=a_medians(80.0, 8.0))
    lines = targets.lines()
    assert "0.90x" in row(lines, "delivery p99 ours / lws reference")
    assert row(lines, "delivery p99 ours / lws reference").rstrip().endswith("(90.0 vs 100.0 ms)")
    # 9.2 / 8.0 = 1.15: on the limit counts as met
    assert " met" in row(lines, "ours / epoll floor") and "1.15x" in row(lines, "ours / epoll floor")


def test_past_the_limit_is_not_met(targets):
    targets.scenario_a(10000, a_medians(101.0, 9.3), ref=a_medians(100.0, 9.0), floor=a_medians(80.0, 8.0))
    targets.scenario_a(19000, a_medians(190.0, 9.0, lost=3, rss=2.01))
    lines = targets.lines()
    for what in ("lws reference", "epoll floor", "19,000 viewers, lost", "RSS per viewer"):
        assert "NOT MET" in row(lines, what), what
    assert lines[-1].strip() == "0 of 4 measured targets met"


def test_unmeasured_targets_are_named(targets):
    # a without the reference and the floor measures only what needs neither, at 19,000
    targets.scenario_a(10000, a_medians(90.0, 9.0))
    targets.scenario_a(19000, a_medians(190.0, 9.0))
    targets.add("b: round lateness p99, live-draw", 4.2, "{:.2f} ms", "<= 5 ms", True)
    lines = targets.lines()
    missing = row(lines, "not measured in this run")
    for what in ("delivery p99 ours / lws reference", "ours / epoll floor", "ours / lws' poll loop",
                 "b2: round lateness p99", "b2: lost", "c: join storm"):
        assert what in missing, what
    assert "19,000" not in missing and "b: round lateness" not in missing
    assert lines[-1].strip() == "3 of 3 measured targets met"
