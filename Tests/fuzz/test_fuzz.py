"""The fuzzer that stays (issue 11): random and mutated WebSocket frames and HTTP requests thrown
at the real binary over real sockets, then the oracle: alive, /healthz, a normal client's draw.

Each test runs batches for LIVE_DRAW_FUZZ_SECONDS (35 s by default) from a printed seed; a
failure names the seed, the batch and the case that reproduces it, with its bytes. See README.md.
"""
from helpers.wsclient import run

from fuzzkit import httpgen, wsgen
from fuzzkit.campaign import TRIAGE_S, Campaign

# Whatever the budget, the test ends: batches stop at the budget, triage has its own bound.
SLACK_S = 120.0


def _fuzz(kind, test, generate, launch, fuzz_config, fuzz_summary):
    campaign = Campaign(kind, test, generate, launch, fuzz_config)
    summary = run(campaign.run(), timeout=fuzz_config.seconds + TRIAGE_S + SLACK_S)
    fuzz_summary(summary)


def test_fuzz_websocket_frames(launch, fuzz_config, fuzz_summary):
    _fuzz("ws", "test_fuzz_websocket_frames", wsgen.generate, launch, fuzz_config, fuzz_summary)


def test_fuzz_http_requests(launch, fuzz_config, fuzz_summary):
    _fuzz("http", "test_fuzz_http_requests", httpgen.generate, launch, fuzz_config, fuzz_summary)
