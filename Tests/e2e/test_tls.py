"""https and wss: the front door accepts, and lws does the TLS handshake and reads the heads.

With TLS the front door cannot read a request before lws has decrypted it, so it hands every
connection over at once (PROTOCOL.md section 5.3 says which limits apply then). This checks that
the hand-over works: a page, the API and a WebSocket over TLS, with a throwaway certificate.
"""
import asyncio
import http.client
import json
import shutil
import ssl
import subprocess

import pytest
import websockets

from helpers.wsclient import run

pytestmark = pytest.mark.skipif(not shutil.which("openssl"), reason="needs the openssl command")


@pytest.fixture
def tls_server(launch, tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return launch(tls_cert=str(cert), tls_key=str(key))


def _context() -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def test_https_and_wss_are_served(tls_server):
    for path, marker in [("/healthz", b'{"status":"ok"}'), ("/", b"INDEX-MARKER")]:
        conn = http.client.HTTPSConnection(tls_server.host, tls_server.port, timeout=5, context=_context())
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        assert resp.status == 200 and marker in body, (path, resp.status, body[:200])

    async def scenario():
        async with websockets.connect(f"wss://{tls_server.host}:{tls_server.port}/ws/lobby", ssl=_context(),
                                      open_timeout=5) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert first["type"] == "snapshot"

    run(scenario(), timeout=15)
