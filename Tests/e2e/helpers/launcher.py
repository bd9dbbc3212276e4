"""Starts live-draw servers with a suite's defaults and stops every one of them at teardown.

Shared by the e2e, fuzz and browser suites: they differ only in their defaults (round interval,
log level, public folder), given to the constructor.
"""
import os
import signal
from pathlib import Path
from typing import Optional

from . import cli
from .datasource import LOTTERY, USERS, DataSource
from .server import ServerProcess


class Launcher:
    """`launcher(**opts)` starts a server; `stop_all()` stops (and cleans up after) them all."""

    def __init__(self, data_source: DataSource, public_dir: Path, defaults: Optional[dict] = None,
                 stop_grace: float = 3.0, log_dir: Optional[Path] = None):
        """`defaults`: options (logical names) every server of the suite gets unless a test says
        otherwise. `stop_grace`: seconds from SIGTERM to SIGKILL. `log_dir`: where each server's
        log is written at teardown; without it the log is printed (pytest shows it on failure)."""
        self.data_source, self.public_dir = data_source, public_dir
        self.defaults, self.stop_grace, self.log_dir = dict(defaults or {}), stop_grace, log_dir
        self.started: list[ServerProcess] = []

    def __call__(self, _prefix=None, _stderr_apart=False, **opts) -> ServerProcess:
        """`_prefix`: a command the binary runs under (see LaunchSpec.prefix). `_stderr_apart`:
        standard error in the server's `err_lines`, not mixed into `lines`."""
        base = {
            "host": "127.0.0.1",
            "port": 0,
            "public_dir": str(self.public_dir),
            "users_url": self.data_source.url(USERS),
            "lottery_url": self.data_source.url(LOTTERY),
            # No 3-2-1 unless a test asks for one: the suites time rounds from `started`.
            "countdown_ms": 0,
            **self.defaults,
            **opts,
        }
        srv = ServerProcess(cli.launch_spec(_prefix, self.stop_grace), base, stderr_apart=_stderr_apart)
        self.started.append(srv)
        return srv.start()

    def stop_all(self, sig: int = signal.SIGTERM) -> None:
        """Stops every server with `sig` (SIGKILL when a clean shutdown is not under test) and
        removes the data dirs they own; then prints or saves each server's log."""
        for i, srv in enumerate(self.started):
            srv.close(sig)
            title = f"---- live-draw log ({' '.join(srv.argv)}) ----\n"
            if self.log_dir is None:
                # Shown by pytest only when the test failed: the server's side of the story.
                print(title + srv.log_text())
            else:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                log = self.log_dir / f"live-draw-{os.getpid()}-{id(self)}-{i}.log"
                log.write_text(title + "\n".join(srv.lines) + "\n")
