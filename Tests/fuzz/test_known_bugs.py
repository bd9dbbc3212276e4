"""Each guarded bug (fuzzkit/guards.py) as its smallest reproduction, judged by the fuzz oracle.

Skipped while the bug is guarded, so `make test` stays green until its fix merges; once the lead
removes the name from GUARDED, the regression runs in every `make test`. On today's main both fail
when run unguarded: LIVE_DRAW_FUZZ_UNGUARDED=1 python3 -m pytest Tests/fuzz -k known_bug
"""
import pytest

from helpers.rawws import encode_frame
from helpers.wsclient import run

from fuzzkit import guards
from fuzzkit.case import Case, Send
from fuzzkit.config import FuzzConfig
from fuzzkit.oracle import Oracle
from fuzzkit.runner import FUZZ_SOURCES, run_case

_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
_POST = b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"

SMALLEST = {
    # A text frame, FIN=0, 1 byte; then its continuation declaring 2**63-1 bytes, carrying 1.
    "continuation-length-overflow": Case(
        "ws", "regression", "known", "1-byte fragment, then a continuation declaring 2**63-1 bytes",
        [Send(encode_frame(0x1, b"{", fin=False) + encode_frame(0x0, b"x", claimed_length=(1 << 63) - 1))], "/ws/lobby"),
    # Two valid requests in one write on a keep-alive connection; the second has a body.
    "pipelined-body-spin": Case(
        "http", "regression", "known", "GET /healthz, then POST /api/rooms {} pipelined behind it",
        [Send(_HEAD + _POST)]),
}


@pytest.mark.parametrize("name", list(SMALLEST))
def test_known_bug_is_fixed(name, launch):
    if name in guards.active(FuzzConfig.from_env().unguarded):
        pytest.skip(f"{name} is still guarded (fuzzkit/guards.py GUARDED): its fix is not merged yet")
    server = launch()
    answered = run_case(server.host, server.port, SMALLEST[name], FUZZ_SOURCES[0])
    failure = run(Oracle(server).check(), timeout=120)
    assert failure is None, f"{name}: {failure}\n(the case was answered: {answered})\n{SMALLEST[name].describe()}"
