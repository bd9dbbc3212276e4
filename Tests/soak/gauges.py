"""What the soak measures while it runs: each node's resident memory and Redis' `used_memory`."""
from typing import Optional


def rss_kib(node) -> Optional[int]:
    """The node process' resident set (VmRSS, KiB) from /proc; None while it is not running."""
    proc = getattr(node, "proc", None)
    if proc is None or proc.poll() is not None:
        return None
    try:
        with open(f"/proc/{proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def redis_used_memory(redis) -> Optional[int]:
    """`used_memory` (bytes) from `INFO memory`; None while Redis does not answer."""
    try:
        head, s, rest = redis._ask("INFO", "memory")
    except OSError:
        return None
    with s:
        if not head.startswith(b"$"):
            return None
        size = int(head[1:])
        while len(rest) < size + 2:
            chunk = s.recv(65536)
            if not chunk:
                return None
            rest += chunk
    for line in rest[:size].decode("utf-8", "replace").splitlines():
        if line.startswith("used_memory:"):
            return int(line.split(":", 1)[1])
    return None


def mib(kib_or_bytes: Optional[int], unit: int = 1024) -> str:
    return "-" if kib_or_bytes is None else f"{kib_or_bytes / unit:.1f}"


def median_kib(readings) -> Optional[int]:
    """The median of a node's RSS readings (KiB), those taken while it ran; None if none was."""
    taken = sorted(r for r in readings if r is not None)
    if not taken:
        return None
    return taken[len(taken) // 2]
