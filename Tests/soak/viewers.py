"""The soak's recording viewer: the fault suite's `Viewer` (cluster.py: every message with its
receive time, one segment per connection, reconnecting by itself), keeping less of each message so
that some 220 viewers can record for 30 minutes in one Python process."""
import json
from typing import Optional

from cluster import Viewer

# Messages the checker ignores (checker.py skips them): not recorded at all.
IGNORED = ("presence", "heartbeat", "pong")


def compact(d: dict) -> dict:
    """`d` with every entrant list (a v1 `started`, a snapshot's running draw or last result, a
    `finished`) replaced by its length in `entrantCount`, which the checker reads instead
    (checker.py `note_plan`). A 5,000-name list is about 300 KB a message; each node's record of
    the draw keeps the whole list and is verified in full (soak.py)."""
    for part in (d, d.get("draw"), d.get("lastResult")):
        if isinstance(part, dict) and isinstance(part.get("entrants"), list):
            part["entrantCount"] = len(part.pop("entrants"))
    return d


class SoakViewer(Viewer):
    """A recording viewer of one room that also notes every draw it saw start in `started_ids`
    (shared by every viewer: the soak's running count of draws, for Redis' bytes per draw)."""

    def __init__(self, name: str, cluster, target: int, room: str, started_ids: set):
        super().__init__(name, cluster, target, room=room)
        self.started_ids = started_ids

    def decode(self, raw) -> Optional[dict]:
        d = json.loads(raw)
        if d.get("type") in IGNORED:
            return None
        if d.get("type") == "started" and d.get("drawId"):
            self.started_ids.add(d["drawId"])
        return compact(d)

    def draws_witnessed(self) -> set:
        """Every draw this viewer was shown something of (its start, a round, its end, or a
        snapshot of it running or ended)."""
        ids = set()
        for m in self.messages():
            d = m["data"]
            if d.get("type") in ("started", "round", "finished", "aborted") and d.get("drawId"):
                ids.add(d["drawId"])
            elif d.get("type") == "snapshot":
                for part in (d.get("draw"), d.get("lastResult")):
                    if isinstance(part, dict) and part.get("drawId"):
                        ids.add(part["drawId"])
        return ids
