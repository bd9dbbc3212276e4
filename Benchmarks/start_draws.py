#!/usr/bin/env python3
"""Starts many draws at once for bench.py scenario d: `start_draws.py PORT KEYS REPORT`.

KEYS has one "ROOM HOSTKEY" per line. Every draw is started with `POST /api/rooms/ROOM/draws` from
a pool of threads, so all of them go out within about a second; REPORT gets a JSON object with
when the first and the last request was sent and answered, and how many were not 202.
"""
import json, sys, time, urllib.error, urllib.request
from concurrent.futures import ThreadPoolExecutor

THREADS = 32


def start(port, room, key):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/rooms/{room}/draws", data=b"", method="POST")
    req.add_header("Authorization", f"Bearer {key}")
    req.add_header("Content-Type", "application/json")
    sent = time.time()
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    except OSError:
        status = 0
    return sent, time.time(), status


def main():
    port, keys_file, report = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    with open(keys_file) as f:
        rooms = [line.split() for line in f if line.strip()]
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda rk: start(port, rk[0], rk[1]), rooms))
    sent = [r[0] for r in results]
    answered = [r[1] for r in results]
    with open(report, "w") as f:
        json.dump({"draws": len(results), "refused": sum(1 for r in results if r[2] != 202),
                   "sent_spread_ms": (max(sent) - min(sent)) * 1e3,
                   "answered_spread_ms": (max(answered) - min(sent)) * 1e3}, f)


if __name__ == "__main__":
    main()
