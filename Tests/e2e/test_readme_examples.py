"""README's examples run as written: the scripted watcher's code block, copied out of README.md,
watches a real server through a whole draw; and its install lines work on Debian 12, whose Python
refuses a plain `pip install` (PEP 668, "externally managed").
"""
import re
import subprocess
import sys
import threading
import time

from helpers import http
from helpers.cli import REPO

README = REPO / "README.md"


def _blocks(section: str) -> dict:
    """The fenced code blocks of README's `## section`, by language (the first of each)."""
    text = README.read_text()
    start = text.index(f"## {section}\n")
    end = text.find("\n## ", start + 1)
    found = {}
    for lang, body in re.findall(r"```(\w+)\n(.*?)```", text[start:end if end > 0 else None], re.S):
        found.setdefault(lang, body)
    return found


def test_the_install_lines_avoid_the_system_pip(tmp_path):
    """Every pip in the section is a virtual environment's, and that environment can be made."""
    install = _blocks("A scripted watcher")["sh"]
    commands = [line.split("#")[0].strip() for line in install.splitlines()]
    pips = [c for c in commands if re.search(r"\bpip3? install\b", c)]
    assert pips and all(re.search(r"(^|&& )\.venv/bin/pip install websockets$", c) for c in pips), pips
    assert "python3 -m venv .venv" in install
    subprocess.run(["python3", "-m", "venv", str(tmp_path / ".venv")], check=True, capture_output=True)
    assert (tmp_path / ".venv" / "bin" / "pip").exists(), "the venv has no pip (python3-venv missing?)"


def test_the_watcher_block_follows_a_whole_draw(server, tmp_path):
    script = tmp_path / "watch.py"
    script.write_text(_blocks("A scripted watcher")["python"])
    watcher = subprocess.Popen([sys.executable, str(script), "lobby", f"ws://{server.host}:{server.port}"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(watcher.stdout.readline, "")), daemon=True)
    reader.start()
    try:
        _wait(lambda: any(line.startswith("joined lobby") for line in lines), "the watcher to join", watcher, lines)
        assert http.start_draw(server, "lobby", server.lobby_key).status == 202
        _wait(lambda: any(line.startswith("winner:") for line in lines), "the watcher to print the result",
              watcher, lines)
    finally:
        watcher.terminate()
        watcher.wait(5)
        reader.join(2)
    rounds = [line for line in lines if line.startswith("round ")]
    assert [r.split(":")[0] for r in rounds] == [f"round {i}/10" for i in range(1, 11)], lines
    assert any(re.match(r"draw [0-9a-f]{32}: \d+ entrants, commitment [0-9a-f]{64}$", line.strip()) for line in lines), lines
    assert not any("Traceback" in line for line in lines), "".join(lines)


def _wait(condition, what, proc, lines, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"the watcher exited ({proc.returncode}):\n{''.join(lines)}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{''.join(lines)}"
        time.sleep(0.02)
