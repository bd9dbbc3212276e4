"""The checker of the cluster fault suite: reads every message every viewer got and every node's
history, and lists each broken promise (issue 27). Pure: no server, no network, no clock; the unit
tests in test_checker.py feed it hand-made transcripts, one per rule broken.

Input
-----
`transcripts`: one per viewer, `{"viewer": name, "segments": [segment, ...]}`; a segment is one
WebSocket connection, `{"node": name, "messages": [{"at": epoch ms received, "data": {...}}],
"open_at_end": bool, "closed_at": epoch ms or None}` in the order received (heartbeats may be
left in: they are ignored). A viewer that reconnects (its node died, it moved) starts a new
segment, whose first message is a `snapshot`.

`histories`: one per node, `{"listing": [history line, ...] or None, "listing_error": str or None,
"records": {drawId: {"status": http status, "body": record or None}}}`: the room's whole
`GET /api/rooms/ROOM/draws` (every page) and `GET /api/draws/ID` of every draw any viewer saw,
taken after the faults were healed and the settle time.

`accepted_starts`: how many starts the cluster answered 202 (each must become a draw or a
`failed`).

`late_snapshots` (optional): node name -> the first message a viewer joining after the settle
time got on that node (its `snapshot`), or `{"error": text}`.

Output: a list of `Violation(rule, text)`, empty when every promise held. Rules:
 1. one draw per room at a time (per viewer's order; across viewers by the server's own times);
 2. every viewer sees the same rounds and the same end of a draw; none after its end; a viewer
    connected through a draw was shown every round any viewer was shown;
 3. every started draw has exactly one recorded end that every node reports identically (record
    and listing), none `running`, agreeing with what viewers were told; no late joiner's
    snapshot shows a draw still running;
 4. the revealed seed matches the commitment; every shown round's index is the seed's pick;
 5. nothing missing from the history (every draw seen is listed and readable on every node;
    every accepted start became a draw or a `failed`).
"""
import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("verify_draw_for_checker", REPO / "tools" / "verify_draw.py")
verify_draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_draw)

ENDS = ("finished", "aborted")
# A viewer whose connection stayed open this long after the first end of a draw any viewer got
# (or to the end of the run) must have been told that end too.
END_GRACE_MS = 5000.0
# Server clocks are one machine's: a round sent this long after the next draw's `startedAt`
# means the two ran at once (1 ms of float formatting slack).
CLOCK_SLACK_MS = 1.0


@dataclass(frozen=True)
class Violation:
    rule: int
    text: str

    def __str__(self) -> str:
        return f"promise {self.rule}: {self.text}"


def _round_content(r: dict) -> tuple:
    return (r.get("index"), r.get("userId"), r.get("name"), r.get("username"))


def _winner_key(msg: dict):
    w = msg.get("winner")
    return None if w is None else (w.get("userId"), w.get("name"))


def _end_key(kind: str, msg: dict) -> tuple:
    """What every viewer must agree on about a draw's end."""
    if kind == "finished":
        picks = [p.get("index") for p in msg["winnerPicks"]] if msg.get("winnerPicks") else None
        return ("finished", None, msg.get("seed"), _winner_key(msg), picks, tuple(msg.get("picks") or ()))
    return ("aborted", msg.get("reason"), msg.get("seed"), None, None, ())


class _Draw:
    def __init__(self, draw_id: str):
        self.id = draw_id
        self.commitment: Optional[str] = None
        self.entrant_count: Optional[int] = None
        self.started_at: Optional[float] = None
        self.rounds: dict[int, dict] = {}          # round -> {content: [(viewer, where)]}
        self.round_sent: list[tuple[int, float]] = []   # (round, sentAt) of live round messages
        self.ends: dict[tuple, list] = {}           # end key -> [(viewer, how)]
        self.end_msgs: list[dict] = []              # finished messages, for verification
        self.first_end_at: Optional[float] = None
        self.finished_at: Optional[float] = None
        self.max_round_seen = 0
        self.aborted_rounds_shown: Optional[int] = None
        self.seen_started = False
        self.all_rounds = 0     # the rounds of a `finished` some viewer got (each shows them all)

    def note_plan(self, d: dict, out: list) -> None:
        c = d.get("commitment")
        if c:
            if self.commitment and self.commitment != c:
                out.append(Violation(2, f"draw {self.id}: two commitments shown ({self.commitment[:12]}…, {c[:12]}…)"))
            self.commitment = self.commitment or c
        n = len(d["entrants"]) if isinstance(d.get("entrants"), list) else d.get("entrantCount")
        if n is not None:
            self.entrant_count = self.entrant_count or n
        if d.get("startedAt") is not None:
            self.started_at = d["startedAt"] if self.started_at is None else self.started_at

    def note_round(self, r: dict, who: str) -> None:
        n = r.get("round")
        self.rounds.setdefault(n, {}).setdefault(_round_content(r), []).append(who)
        self.max_round_seen = max(self.max_round_seen, n or 0)

    def note_end(self, kind: str, msg: dict, who: str, at: float) -> None:
        self.ends.setdefault(_end_key(kind, msg), []).append(who)
        if kind == "finished":
            self.end_msgs.append(msg)
            if msg.get("finishedAt") is not None:
                self.finished_at = max(self.finished_at or 0.0, msg["finishedAt"])
        elif msg.get("roundsShown") is not None:
            self.aborted_rounds_shown = msg["roundsShown"]
        self.note_plan(msg, [])
        if at is not None and (self.first_end_at is None or at < self.first_end_at):
            self.first_end_at = at

    def end_kinds(self) -> set:
        return {k[0] for k in self.ends}


def _walk_segment(viewer: str, si: int, seg: dict, draws: dict, out: list) -> dict:
    """Rules 1 and 2 along one connection, in the order it received; returns what it witnessed:
    {drawId: {"ended": bool, "implicit": snapshot data or None, "last_at": ms}}."""
    where = f"{viewer}#{si}@{seg.get('node')}"
    current: Optional[str] = None      # the draw running in this connection's view
    loading = False
    ended: set = set()
    last_round: dict[str, int] = {}     # highest round shown, by snapshot or message
    live_last: dict[str, int] = {}      # highest round shown by a `round` message
    snapshot_rounds: dict[tuple, tuple] = {}
    live_ends: set = set()
    lr_ended: set = set()               # ended by a snapshot's lastResult
    live: set = set()                   # draws this connection got a live started/round/end of
    seen_round_msgs: dict[tuple, tuple] = {}
    witnessed: dict[str, dict] = {}

    def draw(x: str) -> _Draw:
        return draws.setdefault(x, _Draw(x))

    def witness(x: str, at: float) -> dict:
        w = witnessed.setdefault(x, {"ended": False, "implicit": None, "first_at": at, "rounds": set()})
        return w

    def shown_all(x: str, msg: dict) -> None:
        """A `finished` (or a snapshot's lastResult) shows every pick: every round of the draw."""
        n = msg.get("rounds") if isinstance(msg.get("rounds"), int) else len(msg.get("picks") or ())
        draw(x).all_rounds = max(draw(x).all_rounds, n)
        if x in witnessed:
            witnessed[x]["rounds"].update(range(1, n + 1))

    for m in seg.get("messages", []):
        d, at = m["data"], m.get("at")
        t = d.get("type")
        if t in ("heartbeat", "presence", "pong", "room", "error"):
            continue
        if t == "snapshot":
            sd = d.get("draw")
            lr = d.get("lastResult")
            if lr and lr.get("drawId"):
                x = lr["drawId"]
                draw(x).note_end("finished", lr, f"{where} snapshot.lastResult", at)
                if x in witnessed:
                    witnessed[x]["ended"] = True
                shown_all(x, lr)
                if current == x:
                    current = None
                ended.add(x)
                lr_ended.add(x)
            if sd and sd.get("phase") == "running":
                x = sd["drawId"]
                if x in ended:
                    out.append(Violation(2, f"{where}: a snapshot shows draw {x} running after its end"))
                if current is not None and current != x and current not in ended:
                    out.append(Violation(1, f"{where}: a snapshot shows draw {x} running while {current} was, "
                                            f"with no end of {current}"))
                    witnessed[current]["implicit"] = d
                current, loading = x, False
                draw(x).note_plan(sd, out)
                witness(x, at)
                prev = last_round.get(x, 0)
                for r in sd.get("rounds") or []:
                    draw(x).note_round(r, f"{where} snapshot")
                    snapshot_rounds[(x, r.get("round"))] = _round_content(r)
                    witnessed[x]["rounds"].add(r.get("round"))
                    last_round[x] = max(last_round.get(x, 0), r.get("round", 0))
                if last_round.get(x, 0) < prev:
                    out.append(Violation(2, f"{where}: a snapshot of draw {x} shows fewer rounds "
                                            f"({last_round.get(x, 0)}) than were shown before ({prev})"))
                    last_round[x] = prev
            else:
                # Idle or loading: the draw this connection showed running is over, by this snapshot.
                if current is not None and current not in ended:
                    witnessed[current]["implicit"] = d
                    ended.add(current)
                current = None
                loading = bool(sd and sd.get("phase") == "loading")
            continue
        if t == "loading":
            if current is not None and current not in ended:
                out.append(Violation(1, f"{where}: `loading` of a new draw while draw {current} was running"))
            loading = True
            continue
        if t == "failed":
            if current is not None and current not in ended:
                out.append(Violation(1, f"{where}: `failed` while draw {current} was running"))
            loading = False
            continue
        x = d.get("drawId")
        if not x:
            continue
        dr = draw(x)
        if t == "started":
            dr.seen_started = True
            dr.note_plan(d, out)
            if x in live or (x in ended and x not in witnessed):
                out.append(Violation(2, f"{where}: `started` of draw {x} again (it was shown or ended before)"))
            elif x in ended:
                out.append(Violation(2, f"{where}: `started` of draw {x} after its end"))
            live.add(x)
            if current is not None and current != x and current not in ended:
                out.append(Violation(1, f"{where}: `started` of draw {x} while draw {current} was running "
                                        f"(no end of {current} shown first)"))
            current, loading = x, False
            witness(x, at)
        elif t == "round":
            n = d.get("round")
            dr.note_round(d, where)
            live.add(x)
            if d.get("sentAt") is not None:
                dr.round_sent.append((n, d["sentAt"]))
            if x in ended:
                how = "that draw's end" if x in live_ends or x in lr_ended else "a snapshot that showed the room without it"
                out.append(Violation(2, f"{where}: round {n} of draw {x} after {how}"))
            elif current != x:
                out.append(Violation(1, f"{where}: round {n} of draw {x} while "
                                        f"{'draw ' + current if current else 'no draw'} was running"))
            key = (x, n)
            if key in seen_round_msgs:
                out.append(Violation(2, f"{where}: round {n} of draw {x} delivered twice"
                                        f"{'' if seen_round_msgs[key] == _round_content(d) else ' with different content'}"))
            elif key in snapshot_rounds:
                # The view is written before the publish: a joiner may get a round in its
                # snapshot and then as a message. Harmless if it is the same round.
                if snapshot_rounds[key] != _round_content(d):
                    out.append(Violation(2, f"{where}: round {n} of draw {x} differs from the snapshot's round {n}"))
            elif n is not None and n <= live_last.get(x, 0):
                out.append(Violation(2, f"{where}: round {n} of draw {x} after round {live_last[x]} (out of order)"))
            seen_round_msgs[key] = _round_content(d)
            live_last[x] = max(live_last.get(x, 0), n or 0)
            last_round[x] = max(last_round.get(x, 0), n or 0)
            witness(x, at)["rounds"].add(n)
        elif t in ENDS:
            if x in live_ends:
                out.append(Violation(2, f"{where}: a second end (`{t}`) of draw {x} on one connection"))
            # An end after a snapshot that already showed it over is the view-before-publish
            # race (see rounds above): whether it agrees is checked across viewers.
            live_ends.add(x)
            live.add(x)
            if current is not None and current != x and current not in ended:
                out.append(Violation(1, f"{where}: `{t}` of draw {x} while draw {current} was running"))
            dr.note_end(t, d, where, at)
            if current == x:
                current = None
            ended.add(x)
            w = witness(x, at)
            w["ended"] = True
            if t == "finished":
                shown_all(x, d)
            shown = d.get("roundsShown") if t == "aborted" else d.get("rounds")
            if shown is not None and last_round.get(x, 0) > shown:
                out.append(Violation(2, f"{where}: draw {x} ended (`{t}`) saying {shown} rounds were shown, "
                                        f"this viewer was shown round {last_round[x]}"))
    return witnessed


def _check_history(draws: dict, histories: dict, out: list, seen: set) -> None:
    nodes = sorted(histories)
    listings = {}
    for node in nodes:
        h = histories[node]
        if h.get("listing") is None:
            out.append(Violation(5, f"node {node}: the room's history could not be read "
                                    f"({h.get('listing_error') or 'no listing'})"))
            continue
        lines = {}
        for line in h["listing"]:
            x = line.get("drawId")
            if x in lines:
                out.append(Violation(3, f"node {node}: draw {x} is listed twice in the room's history"))
            lines[x] = line
            if line.get("status") == "running":
                out.append(Violation(3, f"node {node}: the history still lists draw {x} as `running` after settling"))
        listings[node] = lines
    # The listing is the same on every node.
    if len(listings) > 1:
        views = {node: {x: l.get("status") for x, l in lines.items()} for node, lines in listings.items()}
        first = nodes[0] if nodes[0] in views else next(iter(views))
        for node, v in views.items():
            if v != views[first]:
                diff = sorted(set(v.items()) ^ set(views[first].items()))
                out.append(Violation(3, f"the history listing differs between nodes {first} and {node}: {diff}"))
    for x in sorted(seen):
        dr = draws[x]
        statuses = {}
        for node in nodes:
            lines = listings.get(node)
            if lines is not None and x not in lines:
                out.append(Violation(5, f"node {node}: draw {x} (seen by viewers) is missing from the room's history"))
            rec = histories[node].get("records", {}).get(x)
            if rec is None or rec.get("status") != 200 or not isinstance(rec.get("body"), dict):
                out.append(Violation(5, f"node {node}: GET /api/draws/{x} answered "
                                        f"{rec.get('status') if rec else 'nothing'}"))
                continue
            body = rec["body"]
            statuses[node] = (body.get("status"), body.get("seed"))
            if body.get("status") == "running":
                out.append(Violation(3, f"node {node}: GET /api/draws/{x} still says `running` after settling"))
            if lines is not None and x in lines and lines[x].get("status") != body.get("status"):
                out.append(Violation(3, f"node {node}: draw {x} is `{lines[x].get('status')}` in the listing "
                                        f"but `{body.get('status')}` in its record"))
            seed = body.get("seed")
            if seed and body.get("commitment") and _sha(seed) != body["commitment"]:
                out.append(Violation(4, f"node {node}: the record of {x} reveals a seed that does not match its commitment"))
            if seed and isinstance(body.get("entrants"), list) and body.get("drawId") == x:
                try:
                    ok = verify_draw.verify_document(body)["ok"]
                except Exception as e:  # noqa: BLE001 - a record the verifier cannot read fails it
                    ok = False
                    body = dict(body, _error=repr(e))
                if not ok:
                    out.append(Violation(4, f"node {node}: the record of {x} does not verify (tools/verify_draw.py)"))
            if dr.commitment and body.get("commitment") and body["commitment"] != dr.commitment:
                out.append(Violation(3, f"node {node}: the record of {x} has another commitment than viewers were shown"))
            if body.get("status") in ("finished", "aborted", "interrupted") and body.get("roundsShown") is not None \
                    and dr.max_round_seen > body["roundsShown"]:
                out.append(Violation(3, f"node {node}: the record of {x} says {body['roundsShown']} rounds shown, "
                                        f"viewers were shown round {dr.max_round_seen}"))
            # The record agrees with what viewers were told.
            kinds = dr.end_kinds()
            st = body.get("status")
            want = {"finished": {"finished"}, "aborted": {"aborted", "interrupted"}}
            for kind in kinds:
                if st not in want[kind]:
                    out.append(Violation(3, f"node {node}: draw {x} is recorded `{st}`, viewers were told `{kind}`"))
            for key in dr.ends:
                if key[2] and seed and key[2] != seed:
                    out.append(Violation(3, f"node {node}: the record of {x} has another seed than viewers were shown"))
        if len(set(statuses.values())) > 1:
            out.append(Violation(3, f"draw {x}: nodes report different ends (status, seed): "
                                    + ", ".join(f"{n}={s[0]}/{(s[1] or '-')[:12]}" for n, s in sorted(statuses.items()))))


def _sha(seed_hex: str) -> str:
    try:
        return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()
    except ValueError:
        return "not hex"


def _check_seeds(draws: dict, histories: dict, out: list) -> None:
    for x, dr in sorted(draws.items()):
        seeds = {k[2] for k in dr.ends if k[2]}
        entrants = dr.entrant_count
        commitment = dr.commitment
        for h in histories.values():
            body = (h.get("records", {}).get(x) or {}).get("body")
            if isinstance(body, dict):
                if entrants is None and isinstance(body.get("entrants"), list):
                    entrants = len(body["entrants"])
                commitment = commitment or body.get("commitment")
                if body.get("seed"):
                    seeds.add(body["seed"])
        for seed in sorted(seeds):
            if commitment and _sha(seed) != commitment:
                out.append(Violation(4, f"draw {x}: the revealed seed {seed[:12]}… does not match the commitment"))
                continue
            if entrants is None:
                continue
            for n, contents in sorted(dr.rounds.items()):
                want = verify_draw.pick_index(bytes.fromhex(seed), x, n, entrants)
                for content, who in contents.items():
                    if content[0] != want:
                        out.append(Violation(4, f"draw {x}: round {n} was shown as entrant {content[0]} "
                                                f"({who[0]}), the seed picks {want}"))
        for msg in dr.end_msgs:
            if not isinstance(msg.get("entrants"), list) or not msg.get("seed"):
                continue
            rep = verify_draw.verify(x, msg["seed"], msg["entrants"], msg.get("rounds", 10), msg.get("commitment"),
                                     msg.get("entrantsHash"))
            if rep["picks"] != msg.get("picks") or not rep["commitmentOk"] or not rep["entrantsHashOk"]:
                out.append(Violation(4, f"draw {x}: its `finished` does not verify (picks {msg.get('picks')} "
                                        f"vs {rep['picks']}, commitment ok {rep['commitmentOk']})"))
                break


def _spans(ns: list) -> str:
    """[3, 4, 5, 9] -> "3-5, 9"."""
    out, start = [], None
    for i, n in enumerate(ns):
        if start is None:
            start = n
        if i + 1 == len(ns) or ns[i + 1] != n + 1:
            out.append(f"{start}" if start == n else f"{start}-{n}")
            start = None
    return ", ".join(out)


def check(transcripts: list, histories: dict, accepted_starts: Optional[int] = None,
          late_snapshots: Optional[dict] = None) -> list:
    out: list = []
    draws: dict[str, _Draw] = {}
    witnessed_all = []   # (viewer, seg index, seg, witnessed)
    failed_counts = []
    for t in transcripts:
        fails = 0
        for si, seg in enumerate(t["segments"]):
            w = _walk_segment(t["viewer"], si, seg, draws, out)
            witnessed_all.append((t["viewer"], si, seg, w))
            fails += sum(1 for m in seg.get("messages", []) if m["data"].get("type") == "failed")
        failed_counts.append(fails)

    # Rule 2 across viewers: one content per round, one end per draw.
    for x, dr in sorted(draws.items()):
        for n, contents in sorted(dr.rounds.items()):
            if len(contents) > 1:
                out.append(Violation(2, f"draw {x}: round {n} was shown with different content: "
                                        + "; ".join(f"entrant {c[0]} {c[2]!r} to {w[0]}" for c, w in contents.items())))
        if len(dr.ends) > 1:
            out.append(Violation(2, f"draw {x}: viewers were told different ends: "
                                    + "; ".join(f"{k[0]}{'/' + k[1] if k[1] else ''} seed {(k[2] or '-')[:12]} "
                                                f"(to {w[0]}{' and %d more' % (len(w) - 1) if len(w) > 1 else ''})"
                                                for k, w in dr.ends.items())))
        if dr.aborted_rounds_shown is not None and dr.max_round_seen > dr.aborted_rounds_shown:
            out.append(Violation(2, f"draw {x}: `aborted` says {dr.aborted_rounds_shown} rounds were shown, "
                                    f"viewers were shown round {dr.max_round_seen}"))
        if dr.rounds and max(dr.rounds) is not None and dr.seen_started is False and not dr.ends and dr.started_at is None:
            pass
        if (dr.seen_started or dr.rounds) and not dr.ends and not any(
                w.get(x, {}).get("implicit") for _, _, _, w in witnessed_all):
            out.append(Violation(2, f"draw {x}: no viewer was ever told how it ended"))

    # Rule 2 per viewer: a connection that witnessed a draw and stayed open past its end got it.
    for viewer, si, seg, w in witnessed_all:
        for x, info in w.items():
            dr = draws[x]
            if info["ended"]:
                continue
            stayed = seg.get("open_at_end") or (
                dr.first_end_at is not None and seg.get("closed_at") is not None
                and seg["closed_at"] > dr.first_end_at + END_GRACE_MS)
            if not stayed:
                continue
            imp = info.get("implicit")
            if imp is None:
                out.append(Violation(2, f"{viewer}#{si}@{seg.get('node')}: saw draw {x} run and was never told "
                                        f"its end (connected throughout)"))
            elif "finished" in dr.end_kinds():
                lr = (imp.get("lastResult") or {}) if imp.get("type") == "snapshot" else {}
                if lr.get("drawId") != x:
                    out.append(Violation(2, f"{viewer}#{si}@{seg.get('node')}: draw {x} finished, but this viewer "
                                            f"was only shown a {imp.get('type')} without its result"))

    # Rule 2, the same rounds for everybody: a viewer connected through a draw (until it learned
    # the end, or to the end of the run) was shown every round any viewer was shown, live or in
    # a snapshot (a `finished` shows them all). Rounds shown on one node and never on the others
    # are a draw the cluster did not share.
    for viewer, si, seg, w in witnessed_all:
        for x, info in w.items():
            dr = draws[x]
            stayed = info["ended"] or seg.get("open_at_end") or (
                dr.first_end_at is not None and seg.get("closed_at") is not None
                and seg["closed_at"] > dr.first_end_at + END_GRACE_MS)
            top = max(dr.max_round_seen, dr.all_rounds)
            missing = sorted(set(range(1, top + 1)) - info["rounds"]) if stayed else []
            if missing:
                out.append(Violation(2, f"{viewer}#{si}@{seg.get('node')}: connected through draw {x}, never "
                                        f"shown round(s) {_spans(missing)} that other viewers were shown"))

    # Rule 3 for late joiners: after settling, a viewer joining on any node is shown no draw
    # still running (or loading): the end of every draw reached every node.
    for node, snap in sorted((late_snapshots or {}).items()):
        if snap.get("type") != "snapshot":
            out.append(Violation(3, f"node {node}: a viewer joining after settling got no snapshot "
                                    f"({snap.get('error', snap.get('type'))})"))
            continue
        sd = snap.get("draw") or {}
        if sd.get("phase") in ("running", "loading"):
            out.append(Violation(3, f"node {node}: a viewer joining after settling is shown draw "
                                    f"{sd.get('drawId')} still {sd['phase']} (round "
                                    f"{max([r.get('round', 0) for r in sd.get('rounds') or []] or [0])})"))

    # Rule 1 across viewers, on the servers' own clock: no round (or result) of a draw was sent
    # after the next draw had started.
    timeline = sorted((dr.started_at, x) for x, dr in draws.items() if dr.started_at is not None)
    for i, (s0, x) in enumerate(timeline):
        dr = draws[x]
        for s1, y in timeline[i + 1:]:
            late = [n for n, sent in dr.round_sent if sent > s1 + CLOCK_SLACK_MS]
            if late:
                out.append(Violation(1, f"draws {x} and {y} ran at once: round(s) {sorted(set(late))} of {x} were "
                                        f"sent after {y} started"))
            elif dr.finished_at is not None and dr.finished_at > s1 + CLOCK_SLACK_MS:
                out.append(Violation(1, f"draws {x} and {y} ran at once: {x} finished after {y} started"))

    seen = {x for x, dr in draws.items() if dr.seen_started or dr.rounds or dr.ends}
    _check_seeds(draws, histories, out)
    _check_history(draws, histories, out, seen)

    if accepted_starts is not None:
        resolved = len({x for x, dr in draws.items() if dr.seen_started or dr.rounds}) + max(failed_counts or [0])
        if resolved < accepted_starts:
            out.append(Violation(5, f"{accepted_starts} starts were accepted (202), viewers saw only "
                                    f"{resolved} draws or failures"))
    # One line per violation, in a stable order.
    uniq = []
    for v in out:
        if v not in uniq:
            uniq.append(v)
    return uniq
