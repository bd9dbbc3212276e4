"""The cluster soak (issue 44; README.md): minutes of hosts and viewers on three nodes and one
Redis, rolling restarts and one Redis restart, then every viewer's transcript and every node's
history through the fault suite's checker. Runs only when SOAK_MINUTES is set (`make
soak-cluster`, `make chaos`): it is not part of `make test`."""
import os

import pytest

from soak import SoakConfig, run_soak


@pytest.mark.skipif(not os.environ.get("SOAK_MINUTES"), reason="the soak runs only with SOAK_MINUTES (make soak-cluster)")
def test_the_cluster_keeps_every_promise_through_the_soak(launch, data_source):
    cfg = SoakConfig.from_env()
    result = run_soak(cfg, launch)
    print(result.report(), flush=True)
    assert result.ok, f"{len(result.violations)} violation(s); replay with SOAK_SEED={cfg.seed}"
