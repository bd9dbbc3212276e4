"""WebSocket fuzz cases: frame streams sent after a normal upgrade.

Each template aims at one part of RFC 6455 a server must get right: frame headers (RSV bits,
reserved opcodes, masks, every length form up to 2**64-1), fragmentation (continuations without a
start, control frames between fragments, a new message before the last one ended), the close
handshake (every band of close codes, reasons that are not UTF-8, payloads of 1 byte or over 125),
control frames (oversized and fragmented pings), the application messages, and byte-level havoc
on all of these. The stream then passes the known-crash guards and is cut into sends.
"""
import random

from helpers.rawws import encode_frame

from . import guards, values
from .case import Case, deliver, recut
from .config import derive

DATA_OPCODES = (0x1, 0x2)
RESERVED_OPCODES = (0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF)


def frame(rng: random.Random, opcode: int, payload: bytes, fin: bool = True, weird: float = 0.15,
          declared=None) -> bytes:
    """One frame; with probability `weird` each header field is bent (RSV, mask, length form)."""
    rsv = rng.randint(1, 7) if rng.random() < weird else 0
    key = None if rng.random() < weird / 2 else rng.randbytes(4)   # None: unmasked
    if declared is None and rng.random() < weird:
        declared = values.length(rng, len(payload))
    n = len(payload) if declared is None else declared
    forms = [f for f in (7, 16, 64) if n < {7: 126, 16: 65536, 64: 1 << 64}[f]]
    form = rng.choice(forms) if rng.random() < weird else None
    return encode_frame(opcode, payload, fin, masked=key is not None, claimed_length=declared, rsv=rsv,
                        mask_key=key, length_form=form)


def _control(rng: random.Random) -> bytes:
    opcode = rng.choice((0x8, 0x9, 0x9, 0xA))
    payload = _close_payload(rng) if opcode == 0x8 else values.junk(rng, 16)
    return frame(rng, opcode, payload, weird=0.1)


def _close_payload(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.1:
        return b""
    if r < 0.2:
        return rng.randbytes(1)
    return rng.choice(values.CLOSE_CODES).to_bytes(2, "big") + values.reason(rng)


def t_frame(rng):
    opcode = rng.choice(DATA_OPCODES * 3 + RESERVED_OPCODES + (0x0, 0x8, 0x9, 0xA))
    payload = values.text_payload(rng) if opcode == 1 else values.junk(rng, 300)
    return f"one frame, opcode {opcode:#x}", [frame(rng, opcode, payload, fin=rng.random() < 0.8, weird=0.4)]


def t_fragments(rng):
    start = rng.choice((0x1, 0x1, 0x1, 0x2, 0x2, 0x0, rng.choice(RESERVED_OPCODES)))
    body = values.text_payload(rng)
    cut = rng.randint(0, len(body))
    frames = [frame(rng, start, body[:cut] or rng.randbytes(rng.randint(0, 3)), fin=False, weird=0.05)]
    count = rng.randint(1, 5)
    for k in range(count):
        if rng.random() < 0.3:
            frames.append(_control(rng))           # allowed between fragments (unless bent)
        if rng.random() < 0.1:
            frames.append(frame(rng, rng.choice(DATA_OPCODES), b"{}", fin=False))  # new message mid-message
        last = k == count - 1
        # Half the continuations lie about their length, mostly hugely: the sum "bytes so far +
        # bytes announced" is what a message-size check computes, and where it can overflow.
        declared = values.boundary(rng, huge=0.5) if rng.random() < 0.5 else None
        payload = body[cut:] if last and declared is None else rng.randbytes(rng.randint(1, 64))
        frames.append(frame(rng, 0x0, payload, fin=last and rng.random() < 0.8, weird=0.1, declared=declared))
    return f"fragmented message starting with opcode {start:#x}, {count} continuation(s)", frames


def t_close(rng):
    frames = [frame(rng, 0x8, _close_payload(rng), weird=0.2)]
    if rng.random() < 0.4:  # a client that keeps talking after its close
        frames += [frame(rng, rng.choice((0x1, 0x9, 0x8)), b'{"type":"ping"}') for _ in range(rng.randint(1, 3))]
    return "close frame (code, reason) then maybe more", frames


def t_control(rng):
    opcode = rng.choice((0x9, 0x9, 0xA, 0x8))
    size = rng.choice((0, 1, 125, 126, 127, 200, 1000, 4096, 65535, 65536))
    sent = min(size, rng.choice((size, 300)))
    fin = rng.random() < 0.8                    # a fragmented control frame is a protocol error
    mask = rng.random() < 0.7                   # an unmasked client frame must be refused (1002)
    data = encode_frame(opcode, rng.randbytes(sent), fin, masked=mask, claimed_length=size,
                        mask_key=rng.randbytes(4) if mask else None)
    return f"control {opcode:#x} declaring {size} bytes, {sent} sent, fin={fin}, masked={mask}", [data]


def t_messages(rng):
    count = rng.choice((1, 2, 5, 20, 60))
    frames = [frame(rng, 0x1 if rng.random() < 0.9 else 0x2, values.text_payload(rng), weird=0.03)
              for _ in range(count)]
    return f"{count} application message(s)", frames


def t_lengths(rng):
    frames = []
    for _ in range(rng.randint(1, 3)):
        opcode = rng.choice((0x0, 0x1, 0x1, 0x2, 0x9, rng.choice(RESERVED_OPCODES)))
        sent = rng.choice((0, 1, 16, 300, 4097, 5000))
        frames.append(frame(rng, opcode, rng.randbytes(sent), fin=rng.random() < 0.5, weird=0.2,
                            declared=values.boundary(rng)))
    return "declared lengths at the boundaries (every form)", frames


def t_havoc(rng):
    base_note, frames = rng.choice((t_fragments, t_messages, t_close, t_control))(rng)
    rounds = rng.randint(1, 8)
    return f"{base_note}, then {rounds} byte mutation(s)", [values.mutate(rng, b"".join(frames), rounds)]


def t_garbage(rng):
    data = rng.randbytes(rng.randint(1, 600))
    return f"{len(data)} random bytes", [data]


TEMPLATES = [(t_frame, 2), (t_fragments, 4), (t_close, 2), (t_control, 2), (t_messages, 1),
             (t_lengths, 2), (t_havoc, 3), (t_garbage, 1)]


def generate(seed: int, batch: int, index: int, active_guards: frozenset) -> Case:
    """The WebSocket case SEED/BATCH/INDEX (the same bytes wherever it is generated)."""
    rng = random.Random(derive(seed, "ws", batch, index))
    template = rng.choices([t for t, _ in TEMPLATES], [w for _, w in TEMPLATES])[0]
    note, frames = template(rng)
    path = "/ws/lobby" if rng.random() < 0.85 else rng.choice(("/ws/no-such-room", "/ws/UPPER", "/ws/" + "a" * 65))
    stream = guards.apply_ws(b"".join(frames), active_guards)
    steps = deliver(rng, stream, recut(stream, frames))
    return Case("ws", f"{seed}/{batch}/{index}", template.__name__[2:], note, steps, path)
