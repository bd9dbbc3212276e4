"""A packaged server (issue 28, item 9): the binary finds its page (public/) and its bundled
default lists (defaults/*.json) beside itself or in an installed layout (PREFIX/bin/live-draw
with PREFIX/share/live-draw/...), started from another working directory, as `make install`
lays them out. Before, it refused to start outside the checkout."""
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from helpers.cli import LIVE_DRAW_BIN, REPO


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _install(layout, root):
    """The binary and its share files as `make install PREFIX=root` (or a flat folder) lays them out."""
    bin_dir, share = (root / "bin", root / "share" / "live-draw") if layout == "prefix" else (root, root)
    bin_dir.mkdir(parents=True)
    share.mkdir(parents=True, exist_ok=True)
    shutil.copy2(LIVE_DRAW_BIN, bin_dir / "live-draw")
    shutil.copytree(REPO / "public", share / "public")
    shutil.copytree(REPO / "defaults", share / "defaults")
    return bin_dir / "live-draw", share


def _get(url):
    with urllib.request.urlopen(url, timeout=5) as resp:
        return resp.status, resp.read().decode()


@pytest.mark.parametrize("layout", ["prefix", "beside"])
def test_an_installed_server_runs_from_another_directory(tmp_path, layout):
    binary, share = _install(layout, tmp_path / "pkg")
    elsewhere = tmp_path / "elsewhere"  # no public/ or defaults/ here
    elsewhere.mkdir()
    port = _free_port()
    proc = subprocess.Popen([str(binary), "--port", str(port), "--data-dir", "off"], cwd=elsewhere,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert proc.poll() is None, proc.stdout.read()
            try:
                status, page = _get(f"http://127.0.0.1:{port}/")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.05)
        assert status == 200 and "<title>live-draw</title>" in page  # the installed page
        status, script = _get(f"http://127.0.0.1:{port}/js/main.js")
        assert status == 200 and script == (share / "public" / "js" / "main.js").read_text()
        status, room = _get(f"http://127.0.0.1:{port}/api/rooms/lobby")
        assert status == 200
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    # The bundled lists it drew from are the installed ones, not a checkout's.
    assert str((share / "defaults").resolve()) in out, out


def test_make_install_lays_out_the_tree(tmp_path):
    """The Makefile's install recipe, run without building (the test's binary stands in)."""
    recipe = subprocess.run(["make", "-n", "install", f"PREFIX={tmp_path}/usr"], cwd=REPO, capture_output=True,
                            text=True, timeout=30)
    assert recipe.returncode == 0, recipe.stderr
    lines = recipe.stdout
    assert f'"{tmp_path}/usr/bin/live-draw"' in lines
    assert f'cp -R public defaults "{tmp_path}/usr/share/live-draw/"' in lines
