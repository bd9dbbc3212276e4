"""The lobby's host key survives a restart on the same data directory, is rotated by one option,
and is per-process (and says so) with --data-dir off (issue 13; README "Hosting a draw",
docs/STORAGE.md "The lobby key file").

Real processes: each server is stopped with SIGTERM and started again on the same data dir and
port, as an operator's restart would. A key is proven by starting a draw with it over the
WebSocket, the way the host's open page does.
"""
import os
import stat
import subprocess

from helpers.cli import LIVE_DRAW_BIN, REPO
from helpers.wsclient import WSClient, run

PER_PROCESS = "lobby key is per-process: it changes on restart"


def banner_line(srv, prefix):
    """The newest log line that starts with `prefix` (after the log's own fields)."""
    found = [line for line in srv.lines if prefix in line]
    assert found, f"no line with {prefix!r}:\n{srv.log_text()}"
    return found[-1]


def start_draw(srv, key):
    """Sends `start` with `key` on the lobby's WebSocket; returns the draw's messages up to its
    end, or the `error` that refused it."""
    async def scenario():
        host = await WSClient.open(srv.ws_url("lobby"), name="host")
        try:
            await host.expect("snapshot")
            await host.send_json({"type": "start", "hostKey": key})
            first = await host.next_non_presence(timeout=10)
            if first.type == "error":
                return [first]
            return [first] + await host.collect_draw(timeout=20)
        finally:
            await host.close()
    return run(scenario(), timeout=40)


def assert_draw_runs(srv, key):
    messages = start_draw(srv, key)
    types = [m.type for m in messages]
    assert types[0] != "error", f"the key was refused: {messages[0].raw}"
    assert "started" in types and types[-1] == "finished", types


def assert_refused(srv, key):
    messages = start_draw(srv, key)
    assert [m.type for m in messages] == ["error"], [m.raw[:120] for m in messages]
    assert messages[0]["code"] == "forbidden", messages[0].raw


def key_file_mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_lobby_key_survives_a_restart_and_rotates_on_request(launch, tmp_path):
    data_dir = tmp_path / "data"
    key_file = data_dir / "lobby.key"
    srv = launch(data_dir=str(data_dir))
    first_key = srv.lobby_key
    assert f"lobby key: new, kept in {key_file}" in banner_line(srv, "lobby key")
    assert key_file.read_text() == first_key + "\n"
    assert key_file_mode(key_file) == 0o600
    assert_draw_runs(srv, first_key)

    # SIGTERM while idle, then the same data dir: the link printed before still starts a draw.
    srv.stop()
    assert srv.proc.returncode == 0, srv.log_text()
    srv.restart()
    assert srv.lobby_key == first_key
    assert f"lobby key: kept in {key_file}, the same after a restart" in banner_line(srv, "lobby key")
    assert_draw_runs(srv, first_key)

    # Rotation: a new key in the same file, announced; the old one is refused.
    srv.stop()
    srv.opts["rotate_lobby_key"] = True
    srv.restart()
    rotated = srv.lobby_key
    assert rotated != first_key
    assert "lobby key: rotated" in banner_line(srv, "lobby key")
    assert first_key not in banner_line(srv, "lobby key")
    assert key_file.read_text() == rotated + "\n"
    assert key_file_mode(key_file) == 0o600
    assert_refused(srv, first_key)
    assert_draw_runs(srv, rotated)

    # Without the flag again, the rotated key is the one kept.
    srv.stop()
    srv.opts["rotate_lobby_key"] = None
    srv.restart()
    assert srv.lobby_key == rotated
    assert sorted(p.name for p in data_dir.iterdir() if "lobby" in p.name) == ["lobby.key"]


def test_operator_key_file_is_used_as_is(launch, tmp_path):
    key = "0f1e2d3c4b5a69780f1e2d3c4b5a69780f1e2d3c4b5a6978"
    key_file = tmp_path / "operator.key"
    key_file.write_text(key + "\n")
    key_file.chmod(0o400)
    srv = launch(data_dir="off", lobby_key_file=str(key_file))
    assert srv.lobby_key == key
    assert f"lobby key: kept in {key_file}" in banner_line(srv, "lobby key")
    assert_draw_runs(srv, key)


def test_data_dir_off_says_the_key_is_per_process(launch):
    srv = launch(data_dir="off")
    first_key = srv.lobby_key
    assert PER_PROCESS in banner_line(srv, "lobby key")
    srv.stop()
    srv.restart()
    assert srv.lobby_key != first_key
    assert PER_PROCESS in banner_line(srv, "lobby key")


def refuse_to_start(public_dir, *args):
    """Runs the binary with `args`; it must exit without serving. Returns (code, lines)."""
    result = subprocess.run([LIVE_DRAW_BIN, "--port", "0", "--public-dir", str(public_dir), *args],
                            capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL, cwd=REPO,
                            env={k: v for k, v in os.environ.items() if not k.startswith("LIVE_DRAW_")})
    lines = [l for l in (result.stdout + result.stderr).splitlines() if l.strip()]
    assert not any("listening on" in l for l in lines), lines
    return result.returncode, lines


def test_a_key_file_others_can_read_or_a_malformed_one_stops_the_start(public_dir, tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    key_file = data_dir / "lobby.key"
    key = "00112233445566778899aabbccddeeff0011223344556677"
    key_file.write_text(key + "\n")
    key_file.chmod(0o644)
    code, lines = refuse_to_start(public_dir, "--data-dir", str(data_dir))
    errors = [l for l in lines if "error" in l.lower()]
    assert code == 1
    assert errors == [f"live-draw: error: the lobby key file {key_file} is accessible by group or others "
                      f"(mode 644); it holds the lobby's host key: run 'chmod 600 {key_file}'"], lines
    assert not any(key in l for l in lines)
    assert key_file.read_text() == key + "\n", "the refused file must be left as it was"

    key_file.chmod(0o600)
    key_file.write_text("not a key\n")
    code, lines = refuse_to_start(public_dir, "--data-dir", str(data_dir))
    errors = [l for l in lines if "error" in l.lower()]
    assert code == 1 and len(errors) == 1, lines
    assert errors[0].startswith(f"live-draw: error: the lobby key file {key_file} is malformed: "), errors

    missing = tmp_path / "missing.key"
    code, lines = refuse_to_start(public_dir, "--data-dir", "off", "--lobby-key-file", str(missing))
    errors = [l for l in lines if "error" in l.lower()]
    assert code == 1 and len(errors) == 1, lines
    assert f"the lobby key file {missing} does not exist" in errors[0]
    assert not missing.exists()
