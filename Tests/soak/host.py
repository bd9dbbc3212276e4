"""One room of the soak and its host: the host acts through a random node that is up (starts,
redraws, schedules and their cancellation, list replacements, key rotations, deleting the room),
each action a real HTTP request as the host's page or curl sends it. Every answer is tallied;
only a `403` for the key the host holds now (or a `500`) is a violation: any other refusal is
the cluster saying "not now" (a draw running, Redis away, a node draining)."""
import asyncio
from http.client import HTTPException
import json
import random
import time
from collections import Counter
from datetime import datetime, timezone
from typing import Optional

from helpers import http, keys

# The host's actions and their weights (the list).
ACTIONS = {"start": 45, "redraw": 12, "schedule": 12, "list": 12, "rotate": 12, "delete": 1}
BIG_LIST = 5000


def rfc3339(epoch_s: float) -> str:
    return datetime.fromtimestamp(epoch_s, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def names(rng: random.Random, n: int, tag: str) -> bytes:
    """A plain-text list of `n` names (one a line), different for each `tag`."""
    first = ("Ada", "Bo", "Cyd", "Dara", "Eun", "Femi", "Gus", "Hana", "Ines", "Jo", "Kofi", "Lea")
    return "\n".join(f"{rng.choice(first)} {tag}-{i:05d}" for i in range(n)).encode()


class RoomHost:
    """A room (one incarnation: a deleted room's slot gets a new room with a new name) with its
    viewers, its host key and what the host did."""

    def __init__(self, soak, slot: int, gen: int, big: bool):
        self.soak, self.slot, self.gen, self.big = soak, slot, gen, big
        self.rng = random.Random(f"{soak.cfg.seed}:{slot}:{gen}")
        self.name = f"soak-{slot:02d}-{gen}"
        # Each room's host sends from its own loopback address: the per-address budgets (room
        # creation, upload slots) are not what the soak measures.
        self.source = f"127.0.0.{2 + slot}"
        self.key: Optional[str] = None
        self.viewers: list = []
        self.accepted = 0                  # starts and redraws answered 202
        self.scheduled: dict = {}          # drawId -> {"at": epoch s, "cancelled": bool}
        self.deleted = False
        # A rotation whose answer was lost (its node went down under it): the key may have
        # changed, so a 403 after it is no finding (it is counted in `statuses`).
        self.key_unknown = False
        self.forbidden: list = []          # 403s (and 500s) for the key held: violations
        self.statuses: Counter = Counter()  # "action status" -> count
        self.trail: list = []              # "when action node status", for a finding's context

    # -- plumbing --------------------------------------------------------------------------

    def node(self):
        i = self.soak.pick_node(self.rng)
        return i, self.soak.nodes[i]

    def tally(self, action: str, i: int, status, body=None) -> None:
        self.statuses[f"{action} {status}"] += 1
        self.trail.append(f"{time.monotonic() - self.soak.t0:.1f}s {action} n{i} {status}")
        if status in (403, 500) and not (status == 403 and self.key_unknown):
            self.forbidden.append(f"room {self.name}: {action} through n{i} with the current key answered "
                                  f"{status} {str(body)[:160]} (the host's last actions: {self.trail[-6:-1]})")
            self.soak.log(f"!! {self.forbidden[-1]}")

    async def call(self, action: str, fn, *args, **kw):
        """Runs one blocking HTTP call in the soak's thread pool; (node index, status, body)."""
        i, node = self.node()
        try:
            status, body = await asyncio.to_thread(fn, node, *args, **kw)
        except (OSError, HTTPException) as e:   # the node went down under the request
            status, body = "unreachable", repr(e)
        self.tally(action, i, status, body)
        return i, status, body

    def _api(self, node, method, path, body=None, carry_key=False):
        headers = {"Authorization": f"Bearer {self.key}"}
        if body is not None or method == "POST":
            headers["Content-Type"] = "application/json"
        resp = http.request(node, method, path, body=body, headers=headers, timeout=30, source=self.source,
                            may_carry_key=carry_key)
        try:
            return resp.status, json.loads(resp.body or b"null")
        except ValueError:
            return resp.status, resp.body[:200]

    # -- lifecycle -------------------------------------------------------------------------

    async def create(self) -> None:
        """Creates the room (through a random node, retried while Redis is away), gives it its
        list and opens its viewers."""
        deadline = time.monotonic() + 60
        while True:
            i, node = self.node()
            try:
                resp = await asyncio.to_thread(http.request, node, "POST", "/api/rooms", body={"name": self.name},
                                               headers={"Content-Type": "application/json"}, source=self.source,
                                               may_carry_key=True)
            except OSError:
                resp = None
            if resp is not None and resp.status == 201:
                self.key = resp.json["hostKey"]
                keys.register(self.key)
                break
            assert time.monotonic() < deadline, f"room {self.name} could not be created: {resp and resp.status}"
            await asyncio.sleep(0.5)
        if self.big or self.rng.random() < 0.5:
            await self.replace_list()
        self.viewers = self.soak.open_viewers(self)

    async def replace_list(self) -> None:
        n = BIG_LIST if self.big else self.rng.randrange(20, 400)
        body = names(self.rng, n, f"{self.slot}.{self.gen}.{self.rng.randrange(10**6)}")
        await self.call("list", self._api_text, body)

    def _api_text(self, node, body: bytes):
        resp = http.request(node, "PUT", f"/api/rooms/{self.name}/entrants", body=body,
                            headers={"Content-Type": "text/plain", "Authorization": f"Bearer {self.key}"},
                            timeout=30, source=self.source)
        return resp.status, resp.body[:200]

    def schedule_pending(self) -> bool:
        """A scheduled draw of this room that may not have ended yet (its time plus a draw)."""
        return any(not s["cancelled"] and time.time() < s["at"] + 15 for s in self.scheduled.values())

    # -- the host ---------------------------------------------------------------------------

    async def act(self) -> Optional["RoomHost"]:
        """One action, chosen by the room's own seeded generator. Returns the room that replaces
        this one when the host deleted it (a new room in the same slot), else None."""
        action = self.rng.choices(list(ACTIONS), weights=list(ACTIONS.values()))[0]
        if action == "start":
            _, status, _ = await self.call("start", self._api, "POST", f"/api/rooms/{self.name}/draws")
            self.accepted += status == 202
        elif action == "redraw":
            _, status, page = await self.call("history", self._api, "GET", f"/api/rooms/{self.name}/draws?limit=1")
            lines = (page.get("draws") or []) if status == 200 and isinstance(page, dict) else []
            last = lines[0] if lines else None
            if last and last.get("status") == "finished" and last.get("winner"):
                _, status, _ = await self.call("redraw", self._api, "POST", f"/api/rooms/{self.name}/redraws",
                                               {"drawId": last["drawId"], "userId": last["winner"]["userId"]})
                self.accepted += status == 202
        elif action == "schedule":
            at = time.time() + self.rng.uniform(3, 8)
            _, status, body = await self.call("schedule", self._api, "PUT", f"/api/rooms/{self.name}/schedule",
                                              {"at": rfc3339(at)})
            if status == 201:
                self.scheduled[body["drawId"]] = {"at": at, "cancelled": False}
                if self.rng.random() < 0.25:
                    await asyncio.sleep(1.0)
                    _, status, body = await self.call("cancel", self._api, "DELETE", f"/api/rooms/{self.name}/schedule")
                    if status == 200 and body.get("drawId") in self.scheduled:
                        self.scheduled[body["drawId"]]["cancelled"] = True
        elif action == "list":
            await self.replace_list()
        elif action == "rotate":
            _, status, body = await self.call("rotate", self._api, "POST", f"/api/rooms/{self.name}/key",
                                              carry_key=True)
            if status == 200:
                self.key = body["hostKey"]
                keys.register(self.key)
            elif status == "unreachable":
                self.key_unknown = True
        elif action == "delete" and not self.schedule_pending():
            _, status, _ = await self.call("delete", self._api, "DELETE", f"/api/rooms/{self.name}")
            if status == 204:
                self.deleted = True
                for v in self.viewers:
                    await v.stop()
                self.soak.log(f"room {self.name} deleted; slot {self.slot} gets a new room")
                successor = RoomHost(self.soak, self.slot, self.gen + 1, self.big)
                await successor.create()
                return successor
        return None
