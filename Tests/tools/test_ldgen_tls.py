"""ldgen's wss mode (Benchmarks/loadgen/ldgen.c --tls, issue 29) against a real TLS WebSocket server
(Python's `websockets` over `ssl`, with a certificate made by `openssl req`): every message is
counted through OpenSSL as over plain sockets (payloads of 7-, 16- and 64-bit lengths, one spread
over several TLS records, a fragmented message, pings and messages that must not count), each
client makes a full handshake unless --tls-resume, and the output states what was negotiated.
A few seconds; builds ldgen with gcc."""
import asyncio
import json
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

websockets_server = pytest.importorskip("websockets.asyncio.server")

REPO = Path(__file__).resolve().parents[2]
CLIENTS = 12
ROUNDS = [10, 300, 70000, 10]  # payload padding: 7-bit, 16-bit, 64-bit (several TLS records) lengths

pytestmark = pytest.mark.skipif(not shutil.which("gcc") or not shutil.which("openssl"), reason="needs gcc and openssl")


@pytest.fixture(scope="module")
def ldgen(tmp_path_factory):
    out = tmp_path_factory.mktemp("ldgen") / "ldgen"
    subprocess.run(["gcc", "-O2", "-Wall", "-o", str(out), str(REPO / "Benchmarks/loadgen/ldgen.c"), "-lssl", "-lcrypto"],
                   check=True)
    return out


def message(i, pad):
    us = time.time_ns() // 1000
    return '{"type":"round","round":%d,"sentAt":%d.%03d,"pad":"%s"}' % (i, us // 1000, us % 1000, "x" * pad)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A wss server on a free port that sends every client the rounds once `clients` are in."""
    import ssl
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", "1", "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    state = {"port": None, "conns": set(), "expect": CLIENTS}
    ready = threading.Event()

    async def burst(conns):
        for i, pad in enumerate(ROUNDS, 1):
            for ws in conns:
                await ws.ping()
                await ws.send('{"type":"noise"}')  # must not count
                await ws.send(message(i, pad))
        for ws in conns:  # a fragmented text message, 3 frames
            m = message(len(ROUNDS) + 1, 50)
            await ws.send([m[:7], m[7:30], m[30:]])

    async def handler(ws):
        state["conns"].add(ws)
        if len(state["conns"]) == state["expect"]:
            conns, state["conns"] = list(state["conns"]), set()
            asyncio.get_running_loop().create_task(burst(conns))
        await ws.wait_closed()

    async def main():
        async with websockets_server.serve(handler, "127.0.0.1", 0, ssl=ctx, max_size=None) as srv:
            state["port"] = srv.sockets[0].getsockname()[1]
            ready.set()
            await asyncio.Future()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    assert ready.wait(10)
    return state


def run(ldgen, server, *extra):
    server["conns"], server["expect"] = set(), CLIENTS
    r = subprocess.run([str(ldgen), "--port", str(server["port"]), "--path", "/ws/r", "--clients", str(CLIENTS),
                        "--expect", str(len(ROUNDS) + 1), "--timeout", "20", "--tls", *extra],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    return {**json.loads(lines[0]), **json.loads(lines[1])}


def test_counts_every_message_through_tls_with_full_handshakes(ldgen, server):
    r = run(ldgen, server)
    assert (r["connected"], r["failed_connects"], r["timed_out"]) == (CLIENTS, 0, False)
    assert r["delivered"] == CLIENTS * (len(ROUNDS) + 1) and r["lost"] == 0
    assert r["other_msgs"] == CLIENTS * len(ROUNDS)  # the noise, counted apart
    assert r["tls_version"] == "TLSv1.3" and r["tls_cipher"].startswith("TLS_") and r["tls_group"]
    assert r["tls_handshakes"] == CLIENTS and r["tls_resumed"] == 0  # resumption is off by default
    assert 0 < r["tls_hs_p50_ms"] <= r["tls_hs_p99_ms"]


def test_the_cipher_suite_offered_is_the_one_stated(ldgen, server):
    r = run(ldgen, server, "--tls-ciphersuites", "TLS_CHACHA20_POLY1305_SHA256")
    assert r["tls_cipher"] == "TLS_CHACHA20_POLY1305_SHA256" and r["lost"] == 0


def test_resumption_when_asked_for(ldgen, server):
    # one handshake at a time, so that the first session (sent after its handshake) is there
    r = run(ldgen, server, "--tls-resume", "--inflight", "1")
    assert r["lost"] == 0 and r["tls_resumed"] > 0
