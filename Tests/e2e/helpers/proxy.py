"""A TCP proxy that can drop the line silently: the network failure a closed socket does not show.

Behind a dead NAT, or on a phone that lost its signal, a connection neither closes nor resets:
bytes simply stop arriving, both ways. `freeze()` does exactly that to every connection through
the proxy, the ones open now and the ones accepted while frozen: it stops reading, so whatever
either side sends stays in the proxy's socket buffers, and nothing is closed (no FIN, no RST).
`heal()` lets bytes flow again, on the held connections and on new ones (a page's reconnect
goes through the proxy again). When one side closes, the proxy passes the FIN on; when both
have, it closes both sockets.

Shared by the e2e and browser suites. Threads: one accepting, one per connection.
"""
import select
import socket
import threading
import time


class SilentDropProxy:
    """Forwards 127.0.0.1:`port` (ephemeral) to `target_host`:`target_port`."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port: int = self._listener.getsockname()[1]
        self._flowing = threading.Event()
        self._flowing.set()
        # Only the upstream's bytes held (hold_replies): what the client sends still arrives.
        self._replies_held = False
        # hold_replies_after: the bytes that, once a client sends them, hold the replies from then.
        self._hold_marker: bytes | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self.accepted = 0  # connections accepted so far (tests wait on it)
        self._thread = threading.Thread(target=self._accept_loop, name="silent-drop-proxy", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def frozen(self) -> bool:
        return not self._flowing.is_set()

    def freeze(self) -> None:
        """From now on no byte passes, in either direction, on any connection; none is closed."""
        self._flowing.clear()

    def hold_replies(self) -> None:
        """From now on the target's bytes stay in the proxy, while the client's still reach the
        target: a request is carried out and its answer never comes (a link lost one way, or a
        process that dies before it reads the answer)."""
        self._replies_held = True

    def hold_replies_after(self, marker: bytes) -> None:
        """hold_replies() from the moment a client sends bytes containing `marker` (those bytes
        still reach the target): the answer to exactly that request, and every later one, never
        comes. A test times a fault to one request this way, not to the clock."""
        self._hold_marker = marker

    def heal(self) -> None:
        """Bytes flow again, on the connections held meanwhile and on new ones."""
        self._hold_marker = None
        self._replies_held = False
        self._flowing.set()

    def close(self) -> None:
        """Stops the proxy and closes every socket it holds (tests' teardown)."""
        self._stopped.set()
        self._flowing.set()  # wake the pumps so they see the stop
        try:
            self._listener.close()
        except OSError:
            pass
        with self._lock:
            for s in self._sockets:
                try:
                    s.close()
                except OSError:
                    pass
            self._sockets.clear()
        self._thread.join(timeout=2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- internals -------------------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._stopped.is_set():
                    client.close()
                    upstream.close()
                    return
                self._sockets += [client, upstream]
                self.accepted += 1
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True,
                             name=f"silent-drop-proxy-{self.accepted}").start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        peer = {a: b, b: a}
        open_ends = {a, b}  # sides that have not sent their FIN yet
        try:
            while open_ends and not self._stopped.is_set():
                if not self._flowing.wait(timeout=0.2):
                    continue  # frozen: read nothing, so the kernel buffers hold it all
                ends = [s for s in open_ends if not (self._replies_held and s is b)]
                try:
                    readable, _, _ = select.select(ends, [], [], 0.1)
                except (OSError, ValueError):  # closed under us by close()
                    return
                for s in readable:
                    if not self._flowing.is_set():
                        break  # frozen between select and here: hold this too
                    try:
                        data = s.recv(65536)
                    except OSError:
                        data = b""
                    try:
                        if data and s is a and self._hold_marker is not None and self._hold_marker in data:
                            self._replies_held = True   # before the request reaches the target
                        if data:
                            peer[s].sendall(data)
                        else:
                            open_ends.discard(s)
                            peer[s].shutdown(socket.SHUT_WR)  # pass the FIN on
                    except OSError:
                        open_ends.clear()
        finally:
            for s in (a, b):
                try:
                    s.close()
                except OSError:
                    pass
            with self._lock:
                for s in (a, b):
                    if s in self._sockets:
                        self._sockets.remove(s)


def wait_accepted(proxy: SilentDropProxy, count: int, timeout: float) -> bool:
    """True once the proxy has accepted `count` connections in all, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proxy.accepted >= count:
            return True
        time.sleep(0.02)
    return False


__all__ = ["SilentDropProxy", "wait_accepted"]
