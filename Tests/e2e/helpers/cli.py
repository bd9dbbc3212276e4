"""How live-draw's command line is spelled: the binary, its option flags, its two startup lines.

The one place every Python suite that starts the server reads this from (e2e, fuzz, browser), so
a change to the CLI is one edit here, not one per suite.
"""
import os
import re
from pathlib import Path

from .server import LaunchSpec

REPO = Path(__file__).resolve().parents[3]

LIVE_DRAW_BIN = os.environ.get("LIVE_DRAW_BIN") or str(REPO / ".build" / "debug" / "live-draw")

# Logical option name -> flag. Each is also settable as LIVE_DRAW_<UPPER_SNAKE> by the server,
# but the suites always pass flags explicitly (and strip LIVE_DRAW_* from the child's env).
LIVE_DRAW_OPTIONS = {
    name: "--" + name.replace("_", "-") for name in (
        "host", "port", "public_dir", "users_url", "lottery_url", "round_interval_ms",
        "fetch_connect_timeout_ms", "fetch_timeout_ms", "fetch_max_bytes", "max_message_bytes",
        "outbound_queue", "close_timeout_seconds", "max_connections", "allowed_origins", "tls_cert", "tls_key", "log_level",
        "loading_notice_ms", "head_timeout_ms", "slow_heads_per_address", "max_rooms", "room_idle_seconds", "room_expiry_days", "room_expiry_seconds",
        "room_creation_burst", "room_creation_per_minute", "data_dir", "lobby_key_file", "rotate_lobby_key",
        "idle_ping_seconds", "idle_timeout_seconds", "heartbeat_seconds", "rounds", "redis_url", "shutdown_grace_ms",
        "log_format", "countdown_ms", "frame_ancestors", "cluster_secret_file", "event_loop", "realtime_priority",
        "redis_history_seconds", "redis_history_per_room",
        "max_entrants", "max_upload_bytes", "max_name_chars", "max_rounds", "max_winners", "max_redraws", "min_interval_ms",
        "max_interval_ms", "decelerate_to_ms", "allowed_source_hosts", "allow_private_sources", "fetch_redirects",
        "beacon_url", "beacon_chain", "beacon_margin_ms", "beacon_wait_ms",
    )
}

# "listening on http://127.0.0.1:54321" and a host link ".../?room=lobby#key=<48 hex>".
LISTENING_RE = re.compile(r"listening on https?://(?P<host>\[[^\]]*\]|[^\s:/]+):(?P<port>\d+)")
HOST_KEY_RE = re.compile(r"/\?room=lobby#key=(?P<key>[0-9a-f]{48})\b")


def launch_spec(prefix=None, stop_grace: float = 3.0) -> LaunchSpec:
    """The spec of the binary under test; `prefix` and `stop_grace` as in LaunchSpec."""
    return LaunchSpec(binary=LIVE_DRAW_BIN, options=LIVE_DRAW_OPTIONS, listening_re=LISTENING_RE,
                      host_key_re=HOST_KEY_RE, prefix=list(prefix or []), stop_grace=stop_grace)
