#!/usr/bin/env bash
# Runs the Python suites that exist (Tests/tools, Tests/e2e, Tests/fuzz, Tests/browser,
# Tests/cluster-faults), one pytest run each.
#
# Tests/fuzz runs for a bounded time (about 80 s; LIVE_DRAW_FUZZ_SECONDS per fuzz test, see
# Tests/fuzz/README.md) from a fresh seed each run; a failure prints the seed that replays it.
#
# Tests/cluster-faults runs one fresh seed of each cluster fault (about 4 minutes; `make chaos`
# runs 20 of each, see Tests/cluster-faults/README.md); each run prints its CHAOS_SEED.
#
# One run per suite, not one run for both: each suite has its own conftest.py and imports from
# it (`from conftest import ...`); in a single run both load as the module `conftest` and one
# suite gets the other's. pytest exits 5 when it collects nothing, which would fail `make test`
# while a suite is still an empty folder; a missing folder is skipped for the same reason. Any
# other non-zero exit fails, after every suite has run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Browser tests save screenshots here; CI keeps the folder as its artifacts.
mkdir -p artifacts/screenshots

ran=0 failed=()
for suite in Tests/tools Tests/e2e Tests/fuzz Tests/browser Tests/cluster-faults; do
  if [ ! -d "$suite" ]; then
    echo "test-python: $suite does not exist yet: skipped"
    continue
  fi
  echo "test-python: $suite"
  # Tests/e2e runs on three pytest-xdist workers: its tests mostly wait on real servers' timers
  # (make test used 5 min of CPU in 20 min), each starts its own servers on ephemeral ports and
  # its own data dirs, so three at once took 2.5 min instead of 7 on two cores and left the
  # timing assertions alone. The other suites stay serial: the browser and cluster-fault suites
  # print one summary of all their tests (axe by screen, faults by kind), which xdist's workers
  # would each keep to themselves.
  parallel=()
  [ "$suite" = Tests/e2e ] && parallel=(-n "${LIVE_DRAW_E2E_WORKERS:-3}")
  status=0
  python3 -m pytest "$suite" -q "${parallel[@]}" "$@" || status=$?
  case $status in
    0) ran=$((ran + 1)) ;;
    5) echo "test-python: $suite has no tests yet: nothing to run" ;;
    *) failed+=("$suite (pytest exit $status)") ;;
  esac
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "test-python: FAILED: ${failed[*]}"
  exit 1
fi
echo "test-python: $ran suite(s) passed"
