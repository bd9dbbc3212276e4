"""The node-to-Redis fault proxy (faultproxy.py) against a real echo server on loopback: it
forwards, holds silently (nothing closed, the held bytes and later ones flow again on heal), delays in order, cuts and
refuses, heals, and stops its thread at close(). Fast: under two seconds."""
import socket
import socketserver
import threading
import time

import pytest

from faultproxy import FaultProxy


class _Echo(socketserver.BaseRequestHandler):
    def handle(self):
        while True:
            data = self.request.recv(65536)
            if not data:
                return
            self.server.received.append(data)
            self.request.sendall(data)


@pytest.fixture
def echo():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    server.received = []
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def proxy(echo):
    p = FaultProxy("127.0.0.1", echo.server_address[1])
    yield p
    p.close()


def _connect(proxy) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", proxy.port), timeout=2)
    return s


def _recv_exactly(s: socket.socket, n: int, timeout: float = 2.0) -> bytes:
    s.settimeout(timeout)
    out = b""
    while len(out) < n:
        chunk = s.recv(n - len(out))
        if not chunk:
            raise ConnectionError(f"closed after {out!r}")
        out += chunk
    return out


def _silent_for(s: socket.socket, seconds: float) -> bool:
    """True if nothing (no byte, no FIN, no RST) arrives on `s` for `seconds`."""
    s.settimeout(seconds)
    try:
        s.recv(1)
    except socket.timeout:
        return True
    return False


def test_forwards_both_ways(proxy):
    with _connect(proxy) as s:
        s.sendall(b"PING\r\n")
        assert _recv_exactly(s, 6) == b"PING\r\n"
    assert proxy.accepted == 1
    assert proxy.url == f"redis://127.0.0.1:{proxy.port}"


def test_drop_both_is_silent_and_heals_on_the_same_connection(proxy, echo):
    with _connect(proxy) as s:
        s.sendall(b"a")
        assert _recv_exactly(s, 1) == b"a"
        proxy.drop("both")
        s.sendall(b"held")
        assert _silent_for(s, 0.3), "a cut link answered, or was closed"
        assert proxy.dropped_bytes["to_upstream"] == 4
        assert b"held" not in b"".join(echo.received)
        proxy.heal()
        s.sendall(b"back")
        # Same connection, never closed nor reset; what the cut held arrives first, in order
        # (TCP retransmits it once the network is back: nothing is lost on an open connection).
        assert _recv_exactly(s, 8) == b"heldback"


def test_drop_one_direction(proxy, echo):
    with _connect(proxy) as s:
        proxy.drop("to_client")
        s.sendall(b"one-way")
        deadline = time.monotonic() + 2
        while b"one-way" not in b"".join(echo.received):
            assert time.monotonic() < deadline, "the upstream never got the bytes"
            time.sleep(0.01)
        assert _silent_for(s, 0.2)
        assert proxy.dropped_bytes["to_client"] == 7


def test_latency_delays_in_order_and_heals(proxy):
    with _connect(proxy) as s:
        proxy.latency(0.2)
        t0 = time.monotonic()
        for part in (b"1", b"2", b"3"):
            s.sendall(part)
        assert _recv_exactly(s, 3) == b"123"
        took = time.monotonic() - t0
        assert 0.4 <= took < 1.5, f"round trip took {took:.2f} s, 2 x 0.2 s of latency expected"
        proxy.heal()
        t0 = time.monotonic()
        s.sendall(b"4")
        assert _recv_exactly(s, 1) == b"4"
        assert time.monotonic() - t0 < 0.2


def test_cut_closes_and_refuses_until_healed(proxy):
    s = _connect(proxy)
    s.sendall(b"x")
    assert _recv_exactly(s, 1) == b"x"
    proxy.cut()
    s.settimeout(2)
    assert s.recv(1) == b"", "a cut connection must end"
    s.close()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", proxy.port), timeout=2)
    proxy.heal()
    with _connect(proxy) as s2:
        s2.sendall(b"y")
        assert _recv_exactly(s2, 1) == b"y"


def test_close_ends_connections_and_the_thread(echo):
    p = FaultProxy("127.0.0.1", echo.server_address[1])
    s = _connect(p)
    s.sendall(b"z")
    assert _recv_exactly(s, 1) == b"z"
    p.close()
    s.settimeout(2)
    assert s.recv(1) == b""
    s.close()
    assert not p._thread.is_alive()
    p.close()   # twice is fine
