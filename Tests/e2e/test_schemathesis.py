"""docs/openapi.yaml checked by a tool we did not write (issue 31, finding 9): Schemathesis
generates requests from the document, valid and invalid ones, sends them to a real server and
runs all its checks on the answers (status codes, content types, headers and bodies as
documented, valid data accepted, invalid data refused, auth honoured, 405s with `Allow`, no 5xx).

Why the CLI in a subprocess: it runs every phase (examples, coverage, fuzzing, stateful) exactly
as a developer would from a shell, and prints each failure with a curl line that reproduces it;
the Python API would need its own runner for the stateful phase. Fixed seed, one worker and no
example database, so a run today and a run next month send the same requests.

Every operation can be reached: the test creates a room and its host key, runs a draw to its
end, and hands the ids to Schemathesis (path parameters and the bearer key in its config). The
key-rotating and room-deleting operations get rooms of their own, so their first success does not
turn every later request of the others into a 403 or a 404.
"""
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import http
from helpers.cli import REPO
from helpers.rooms import run_draw

OPENAPI = REPO / "docs" / "openapi.yaml"
SEED = 20260531
# Per operation and phase; enough for the fuzzing phase to reach the success and error answers
# of every operation, small enough to stay well under two minutes on two shared cores.
MAX_EXAMPLES = 50
TIME_LIMIT_S = 150


def _st_command() -> list:
    exe = shutil.which("st") or shutil.which("schemathesis")
    if exe:
        return [exe]
    try:
        import schemathesis  # noqa: F401
    except ImportError:
        pytest.fail("Schemathesis is not installed: pip install -r Tests/e2e/requirements.txt")
    return [sys.executable, "-m", "schemathesis.cli"]


def _toml(value) -> str:
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


# The operations that act for a room's host (openapi.yaml's `security`).
SECURED = ("deleteRoom", "rotateRoomKey", "replaceRoomEntrants", "removeRoomEntrants", "replaceRoomSettings",
           "startDraw", "scheduleDraw", "cancelScheduledDraw")


def _config(main_room: str, draw_id: str, keys: dict) -> str:
    """schemathesis.toml: the ids every operation needs, and the key that goes with each room.

    `keys`: operation id -> (room, its host key). Keys go in as headers per operation (per
    operation, Schemathesis' `auth` takes only `basic`); it still sends requests without them
    and with others (its `ignored_auth` check) and expects 401/403 then.
    """
    lines = [
        f"seed = {SEED}",
        "workers = 1",
        "[generation]",
        f"max-examples = {MAX_EXAMPLES}",
        'database = "none"',
        "[output.truncation]",
        "enabled = false",
        "[checks]",
        "enabled = true",
        # A request refused for its size (414: too many query parameters, PROTOCOL.md §5.4) is
        # refused all the same.
        "[checks.negative_data_rejection]",
        'expected-statuses = ["400", "401", "403", "404", "405", "409", "413", "414", "415", "422", "429"]',
        "[parameters]",
        f'"path.room" = {_toml(main_room)}',
        f'"path.drawId" = {_toml(draw_id)}',
    ]
    for operation_id, (room, room_key) in keys.items():
        lines += [
            "[[operations]]",
            f"include-operation-id = {_toml(operation_id)}",
            "[operations.parameters]",
            f'"path.room" = {_toml(room)}',
            "[operations.headers]",
            f"Authorization = {_toml('Bearer ' + room_key)}",
        ]
        if operation_id == "replaceRoomEntrants":
            # A list's own rules go beyond its schema (at least one entrant, names within
            # --max-name-chars, lottery entries that name users): 422 answers a list that breaks
            # them, however well-formed (PROTOCOL.md §5.6).
            lines += ["[operations.checks.positive_data_acceptance]",
                      'expected-statuses = ["2xx", "401", "403", "404", "409", "422"]']
        if operation_id == "scheduleDraw":
            # A well-formed time is refused when it is past, too soon or too far ahead, and a
            # second schedule while one waits (PROTOCOL.md §5.8).
            lines += ["[operations.checks.positive_data_acceptance]",
                      'expected-statuses = ["2xx", "401", "403", "404", "409", "422"]']
    return "\n".join(lines) + "\n"


def test_schemathesis_finds_nothing(launch, tmp_path):
    # Room creation is budgeted per address (PROTOCOL.md §5.3); Schemathesis creates many rooms.
    server = launch(room_creation_burst=100_000)
    main = http.created_room(server, "st-main")
    record = run_draw(server, "st-main", main["hostKey"])
    assert record["status"] == "finished", record
    keys = {op: ("st-main", main["hostKey"]) for op in SECURED}
    keys.update({op: (room, http.created_room(server, room)["hostKey"])
                 for op, room in (("rotateRoomKey", "st-rotate"), ("deleteRoom", "st-delete"))})
    config = tmp_path / "schemathesis.toml"
    config.write_text(_config("st-main", record["drawId"], keys))

    argv = _st_command() + ["--config-file", str(config), "--no-color", "run", str(OPENAPI),
                            "--url", f"http://{server.host}:{server.port}", "--checks", "all",
                            "--report", "junit", "--report-dir", str(tmp_path / "report")]
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=TIME_LIMIT_S + 60, cwd=tmp_path,
                          env={**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_TELEMETRY": "false"})
    took = time.monotonic() - started
    out = done.stdout + done.stderr
    print(out)  # the whole report, shown by pytest when the test fails
    summary = "\n".join(out.splitlines()[-120:])
    assert done.returncode == 0, f"Schemathesis found problems (exit {done.returncode}, {took:.0f} s):\n{summary}"
    assert "No issues found" in out or " passed" in out, summary
    # Every documented operation was exercised (Schemathesis lists those it skipped or errored).
    assert "errored" not in out.lower() or " 0 errored" in out.lower(), summary
    assert took < TIME_LIMIT_S, f"Schemathesis took {took:.0f} s"
    # The one-shot operations did succeed (Schemathesis warns "only 401/403" and "only 404" for
    # them, as every request after the first success finds the key rotated, the room gone).
    assert http.api(server, "POST", "/api/rooms/st-rotate/key", key=keys["rotateRoomKey"][1])[0] == 403
    assert http.api(server, "GET", "/api/rooms/st-delete")[0] == 404
