"""Raw entrant-list uploads over a socket (test_uploads.py, test_cluster_uploads.py): a head sent
alone or with part of its body, and the answer read with a deadline."""
import socket
import time

BIG = 16_000_000  # the announced body: past the API's usual 16 KiB, under 16 MiB


def _head(room, key, length, content_type="text/plain", expect=False):
    lines = [f"PUT /api/rooms/{room}/entrants HTTP/1.1", "Host: x", f"Content-Type: {content_type}",
             f"Content-Length: {length}"]
    if key is not None:
        lines.append(f"Authorization: Bearer {key}")
    if expect:
        lines.append("Expect: 100-continue")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _connect(srv, source="127.0.0.1"):
    return socket.create_connection((srv.host, srv.port), timeout=5, source_address=(source, 0))


def _read_answer(s, timeout=5.0):
    """Reads until the server closes or a whole head is in (bounded by `timeout`)."""
    s.settimeout(0.2)
    data, deadline = b"", time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            if b"\r\n\r\n" in data:
                break
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def _list(n, prefix="Name"):
    return "\n".join(f"{prefix} {i:06d}" for i in range(n)).encode()
