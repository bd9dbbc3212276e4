"""Bad configuration fails fast with one clear line and a non-zero exit, not a stack trace or a
library's own log noise (issue 5). Each case runs the real binary and reads all of its output."""
import socket
import subprocess

import pytest

from helpers.cli import LIVE_DRAW_BIN


def run(*args):
    """Runs live-draw to completion; a server that starts instead of failing is a test failure."""
    result = subprocess.run([LIVE_DRAW_BIN, "--data-dir", "off", *args], capture_output=True, text=True,
                            timeout=20, stdin=subprocess.DEVNULL)
    lines = [l for l in (result.stdout + result.stderr).splitlines() if l.strip()]
    return result.returncode, lines


def error_lines(lines):
    return [l for l in lines if "error" in l.lower()]


def test_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, lines = run("--port", str(port))
    assert code != 0
    assert error_lines(lines) == [f"live-draw: error: cannot listen on 127.0.0.1:{port}: the port is already in use"]


@pytest.mark.parametrize("args, needle", [
    (["--public-dir", "/nonexistent-live-draw-dir"], "--public-dir"),
    (["--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.key"], "tls"),
    (["--port", "70000"], "--port"),
    (["--users-url", "gopher://example.com/u.json"], "--users-url"),
])
def test_bad_option_is_one_line(args, needle):
    code, lines = run(*args)
    assert code != 0
    errors = error_lines(lines)
    assert len(errors) == 1, lines
    assert needle in errors[0].lower(), errors
