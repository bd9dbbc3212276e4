"""The real live-draw process under test.

Why a class of its own: every test starts its own server (ephemeral port, its own options), and
the port and the lobby host key are only known once the process has printed them. The reader
thread drains stdout+stderr continuously, so a chatty server can never block on a full pipe, and
keeps the whole log for failure reports. The e2e, fuzz and browser suites all start the server
through this class (usually via launcher.Launcher; the CLI's spelling is in cli.py).
"""
import os
import signal
import subprocess
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Optional, Pattern

from . import keys

# The default of stop()/close(): inside the class `signal` names its method of that name.
SIGTERM = signal.SIGTERM


@dataclass
class LaunchSpec:
    """Where the binary is and how its CLI is spelled. Filled in ONE place: cli.py."""
    binary: str
    options: dict            # logical name -> CLI flag, e.g. "round_interval_ms" -> "--round-interval-ms"
    listening_re: Pattern    # group "port" (and optionally "host")
    host_key_re: Pattern     # group "key": the lobby's host key
    startup_timeout: float = 20.0
    stop_grace: float = 3.0  # seconds from SIGTERM to SIGKILL in stop()
    env: dict = field(default_factory=dict)
    # Run the binary through this command, e.g. ["prlimit", "--nofile=256:256"] (it must exec
    # the binary, so the process id stays the server's).
    prefix: list = field(default_factory=list)


class ServerProcess:
    """One running live-draw binary, bound to 127.0.0.1 on a port the OS chose."""

    def __init__(self, spec: LaunchSpec, opts: dict, extra_args: Optional[list] = None,
                 stderr_apart: bool = False):
        """`stderr_apart`: keep standard error out of `lines`, in `err_lines` (both are still
        read for the port and the host link)."""
        self.spec = spec
        self.stderr_apart = stderr_apart
        self.err_lines: list[str] = []
        self.opts = dict(opts)
        self.extra_args = list(extra_args or [])
        # Recording is on by default and one server owns a data dir (a file lock), so servers
        # that run side by side each get a fresh folder, kept across restart() (as a real
        # restart would find it) and removed by close().
        self._own_data_dir = None
        self.argv = self._argv()
        if "--data-dir" not in self.argv:
            self._own_data_dir = tempfile.mkdtemp(prefix="live-draw-e2e-")
            self.argv = self._argv()
        self.proc: Optional[subprocess.Popen] = None
        self.lines: list[str] = []
        self.port: Optional[int] = None
        self.lobby_key: Optional[str] = None
        self._ready = threading.Event()
        self._reader: Optional[threading.Thread] = None

    def _argv(self) -> list:
        own = ["--data-dir", self._own_data_dir] if self._own_data_dir else []
        return list(self.spec.prefix) + [self.spec.binary] + self._flags(self.opts) + self.extra_args + own

    def _flags(self, opts: dict) -> list:
        argv = []
        for name, value in opts.items():
            if value is None or value is False:
                continue
            if name not in self.spec.options:
                raise KeyError(f"no CLI flag is configured for option {name!r} (helpers/cli.py LIVE_DRAW_OPTIONS)")
            # True: a flag without a value (--rotate-lobby-key).
            argv += [self.spec.options[name]] if value is True else [self.spec.options[name], str(value)]
        return argv

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> "ServerProcess":
        if not os.path.isfile(self.spec.binary) or not os.access(self.spec.binary, os.X_OK):
            raise FileNotFoundError(
                f"live-draw binary not found at {self.spec.binary}: build it (swift build) "
                f"or point LIVE_DRAW_BIN at it")
        env = {k: v for k, v in os.environ.items() if not k.startswith("LIVE_DRAW_")}
        env.update(self.spec.env)
        self.proc = subprocess.Popen(
            self.argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE if self.stderr_apart else subprocess.STDOUT,
            stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        self._reader = threading.Thread(target=self._read_output, args=(self.proc.stdout, self.lines), daemon=True)
        self._reader.start()
        if self.stderr_apart:
            threading.Thread(target=self._read_output, args=(self.proc.stderr, self.err_lines), daemon=True).start()
        deadline = time.monotonic() + self.spec.startup_timeout
        while not self._ready.wait(0.05):
            if self.proc.poll() is not None:
                self._reader.join(2)
                raise RuntimeError(
                    f"live-draw exited with {self.proc.returncode} before it was ready\n"
                    f"argv: {self.argv}\n{self.log_text()}")
            if time.monotonic() > deadline:
                self.kill()
                raise TimeoutError(
                    f"live-draw did not print its port and lobby key within {self.spec.startup_timeout}s\n"
                    f"argv: {self.argv}\n{self.log_text()}")
        return self

    def _read_output(self, stream, sink: list):
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            sink.append(line)
            if self.port is None:
                m = self.spec.listening_re.search(line)
                if m:
                    self.port = int(m.group("port"))
            if self.lobby_key is None:
                m = self.spec.host_key_re.search(line)
                if m:
                    self.lobby_key = m.group("key")
                    keys.register(self.lobby_key)
            if self.port is not None and self.lobby_key is not None:
                self._ready.set()

    def signal(self, sig: int) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def wait(self, timeout: float) -> Optional[int]:
        """Exit status, or None if still running after `timeout` seconds."""
        assert self.proc
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: Optional[float] = None, sig: int = SIGTERM) -> None:
        """Sends `sig` (SIGKILL: a crash), then SIGKILL after `grace` seconds (default: the
        spec's stop_grace). Safe to call twice. The data dir stays, for restart()."""
        if not self.proc:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            if self.wait(self.spec.stop_grace if grace is None else grace) is None:
                self.kill()
        if self._reader:
            self._reader.join(2)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def close(self, sig: int = SIGTERM) -> None:
        """Stops the server for good (see stop) and removes the data dir it made for itself."""
        self.stop(sig=sig)
        self.kill()
        if self._own_data_dir:
            shutil.rmtree(self._own_data_dir, ignore_errors=True)
            self._own_data_dir = None

    def restart(self, deadline: float = 15.0) -> "ServerProcess":
        """Starts the stopped server again on the same port with the same data dir, as an
        operator's restart would (clients reconnect to the address they knew). Retries, for at
        most `deadline` seconds, while the old socket still holds the port (the new process
        exits when it cannot bind)."""
        assert self.proc and self.proc.poll() is not None, "stop() the server before restart()"
        assert self._own_data_dir or "data_dir" in self.opts or "--data-dir" in self.extra_args, \
            "close() removed the data dir"
        self.opts["port"] = self.port
        self.argv = self._argv()
        end = time.monotonic() + deadline
        while True:
            self.lines.append(f"---- restart on port {self.opts['port']} ----")
            self.port = self.lobby_key = None
            self._ready.clear()
            try:
                return self.start()
            except RuntimeError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)  # a bounded retry of a failed bind, not a wait for a condition

    # -- addresses -------------------------------------------------------------------------

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def tls(self) -> bool:
        """Whether the server speaks https/wss (started with a certificate)."""
        return bool(self.opts.get("tls_cert"))

    @property
    def base_url(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"

    def ws_url(self, room: str) -> str:
        return f"{'wss' if self.tls else 'ws'}://{self.host}:{self.port}/ws/{room}"

    def log_text(self, last: int = 200) -> str:
        return "\n".join(self.lines[-last:])

    def cpu_seconds(self) -> float:
        """User plus system CPU time the server process has used so far (from /proc)."""
        assert self.proc
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
