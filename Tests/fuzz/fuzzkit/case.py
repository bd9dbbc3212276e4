"""One fuzz case: what is sent over one connection, step by step, and how to print it.

A case is pure data, generated from its seed alone, so the report of a failure can show the exact
bytes and LIVE_DRAW_FUZZ_CASE can rebuild the same case on any machine.
"""
import random
from dataclasses import dataclass, field
from typing import Optional, Union


@dataclass(frozen=True)
class Send:
    data: bytes


@dataclass(frozen=True)
class Pause:
    """The client goes quiet for `ms` between two sends: a slow sender is part of the input."""
    ms: int


@dataclass(frozen=True)
class HalfClose:
    """shutdown(SHUT_WR): the client says it is done sending, and keeps reading."""


@dataclass(frozen=True)
class Abort:
    """Close at once with a reset (SO_LINGER 0): the early close of a client that vanishes."""


Step = Union[Send, Pause, HalfClose, Abort]
MAX_PAUSE_TOTAL_MS = 1500  # bound on a case's silence, so a batch stays a few seconds


@dataclass
class Case:
    kind: str            # "ws": the steps follow a normal upgrade on `path`; "http": a bare connection
    case_id: str         # SEED/BATCH/INDEX, what LIVE_DRAW_FUZZ_CASE takes
    template: str        # which generator made it
    note: str            # what the generator chose, in words
    steps: list = field(default_factory=list)
    path: Optional[str] = None

    def sent_bytes(self) -> bytes:
        return b"".join(s.data for s in self.steps if isinstance(s, Send))

    def describe(self, max_bytes: int = 1024) -> str:
        """Human-readable case: template, choices, then each step (bytes truncated to `max_bytes`)."""
        head = f"case {self.case_id} [{self.kind}/{self.template}]"
        if self.path:
            head += f" after upgrading {self.path}"
        lines = [head, f"  {self.note}"]
        for step in _one_byte_runs(self.steps):
            if isinstance(step, (Send, _Trickle)):
                # HTTP reads best as text (a bytes literal); frames as hex
                shown = repr(step.data[:max_bytes]) if self.kind == "http" else step.data[:max_bytes].hex(" ")
                more = f" … (+{len(step.data) - max_bytes} bytes)" if len(step.data) > max_bytes else ""
                how = " one at a time" if isinstance(step, _Trickle) else ""
                lines.append(f"  send {len(step.data)} bytes{how}: {shown}{more}")
            elif isinstance(step, Pause):
                lines.append(f"  pause {step.ms} ms")
            else:
                lines.append(f"  {type(step).__name__.lower()}")
        return "\n".join(lines)


@dataclass(frozen=True)
class _Trickle:
    """For printing only: consecutive one-byte sends, shown as one line."""
    data: bytes


def _one_byte_runs(steps: list) -> list:
    out = []
    for step in steps:
        prev = out[-1] if out else None
        single = isinstance(step, Send) and len(step.data) == 1
        if single and (isinstance(prev, _Trickle) or isinstance(prev, Send) and len(prev.data) == 1):
            out[-1] = _Trickle(prev.data + step.data)
        else:
            out.append(step)
    return out


def deliver(rng: random.Random, data: bytes, pieces: Optional[list] = None, slow: bool = False) -> list:
    """How `data` goes on the wire: at once, per piece, in random cuts, or slowly; maybe cut short.

    `pieces` are natural boundaries (frames, requests) whose concatenation is `data`.
    """
    r = rng.random()
    if slow or r < 0.08:
        chunks = _cuts(rng, data, rng.randint(2, 8))
        steps, budget = [], MAX_PAUSE_TOTAL_MS
        for chunk in chunks:
            steps.append(Send(chunk))
            ms = min(budget, rng.choice((10, 50, 150, 400)))
            budget -= ms
            steps.append(Pause(ms))
        steps.pop()
    elif r < 0.5:
        steps = [Send(data)]
    elif r < 0.75 and pieces:
        steps = [Send(p) for p in pieces if p]
    elif r < 0.9:
        steps = [Send(c) for c in _cuts(rng, data, rng.randint(2, 12))]
    else:
        # byte by byte for a short prefix: every parser state sees its input split
        cut = min(len(data), rng.randint(1, 48))
        steps = [Send(data[i:i + 1]) for i in range(cut)] + ([Send(data[cut:])] if data[cut:] else [])
    end = rng.random()
    if end < 0.06 and steps:
        steps = steps[:max(1, len(steps) // 2)] + [Abort()]   # early close, mid-request
    elif end < 0.12:
        steps.append(HalfClose())
    return [s for s in steps if not (isinstance(s, Send) and not s.data)]


def recut(data: bytes, pieces: list) -> list:
    """`data` cut where `pieces` meet (a guard changed bytes, never lengths)."""
    out, at = [], 0
    for piece in pieces:
        out.append(data[at:at + len(piece)])
        at += len(piece)
    return out


def _cuts(rng: random.Random, data: bytes, n: int) -> list:
    if len(data) < 2:
        return [data]
    points = sorted(rng.sample(range(1, len(data)), min(n - 1, len(data) - 1)))
    return [data[a:b] for a, b in zip([0] + points, points + [len(data)])]
