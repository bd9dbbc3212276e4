"""The numbers and byte strings fuzz cases are made of: boundaries first, where bugs live.

Random values alone almost never hit an edge (a 64-bit length of exactly 2**63-1, a close code of
1005, a Content-Length one past the limit), so every generator draws from these lists most of the
time and from plain randomness the rest.
"""
import json
import random

# Declared payload lengths, by band. The top band is the one a sum with "bytes so far" overflows.
SMALL_LENGTHS = [0, 1, 2, 3, 4, 5, 7, 8, 16, 64, 100, 123, 124, 125, 126, 127, 128, 255, 256]
MEDIUM_LENGTHS = [1000, 4095, 4096, 4097, 8191, 8192, 65535, 65536, 65537, 1 << 20, (1 << 31) - 1,
                  1 << 31, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 53]
# 2**63-1 twice: the largest length lws accepts (it refuses bit 63), so the likeliest to overflow.
HUGE_LENGTHS = [1 << 62, (1 << 63) - 4097, (1 << 63) - 64, (1 << 63) - 2, (1 << 63) - 1, (1 << 63) - 1,
                1 << 63, (1 << 63) + 1, (1 << 64) - 1]

# Close codes: every defined, reserved and out-of-range band of RFC 6455 section 7.4.
CLOSE_CODES = [0, 1, 999, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011,
               1012, 1013, 1014, 1015, 1016, 1100, 2000, 2999, 3000, 3999, 4000, 4404, 4408, 4999,
               5000, 32768, 65534, 65535]

# Byte strings that are not UTF-8: lone continuation, overlong, surrogate, > U+10FFFF, truncated.
INVALID_UTF8 = [b"\xff", b"\x80", b"\xc0\x80", b"\xc1\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf",
                b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xe2\x82", b"\xf0\x9f\x98",
                b"\xfe\xfe\xff\xff", b"caf\xe9"]
VALID_UTF8 = ["", "bye", "ok", "Zürich", "日本語", "😀" * 3, "\u0000", "a" * 123, "é" * 62]

# Numbers as text, for Content-Length, limit=, cursor=, ids.
NUMBER_TEXTS = ["0", "1", "2", "-1", "-0", "+5", "007", "1e3", "1.5", "0x10", "abc", "", " 5 ", "5, 5",
                "4096", "4097", "65536", "2147483647", "2147483648", "4294967296",
                "9223372036854775807", "9223372036854775808", "18446744073709551615",
                "18446744073709551616", "99999999999999999999999999", "-9223372036854775808", "NaN"]


def length(rng: random.Random, actual: int) -> int:
    """A declared length: the real one half the time, else a boundary from any band."""
    if rng.random() < 0.5:
        return actual
    band = rng.choice((SMALL_LENGTHS, MEDIUM_LENGTHS, HUGE_LENGTHS))
    return rng.choice(band)


def boundary(rng: random.Random, huge: float = 1 / 3) -> int:
    """A declared length that is always a boundary, from the huge band with probability `huge`."""
    if rng.random() < huge:
        return rng.choice(HUGE_LENGTHS)
    return rng.choice(rng.choice((SMALL_LENGTHS, MEDIUM_LENGTHS)))


def reason(rng: random.Random) -> bytes:
    """A close reason: valid UTF-8, not UTF-8, or too long for a control frame."""
    r = rng.random()
    if r < 0.45:
        return rng.choice(VALID_UTF8).encode()
    if r < 0.85:
        return rng.choice(VALID_UTF8[:4]).encode() + rng.choice(INVALID_UTF8)
    return b"x" * rng.choice((124, 125, 200))


def junk(rng: random.Random, max_len: int) -> bytes:
    return rng.randbytes(rng.randint(0, max_len))


def text_payload(rng: random.Random) -> bytes:
    """What a text frame carries: a protocol message, something near one, or not UTF-8."""
    r = rng.random()
    if r < 0.55:
        return json.dumps(message(rng)).encode()
    if r < 0.7:
        return rng.choice([b"{", b"{}", b"[]", b"null", b"nope", b"", b'{"type":', b"\x00", b'"ping"'])
    if r < 0.8:
        depth = rng.choice((10, 100, 1000, 2040))
        return b"[" * depth + b"]" * depth if rng.random() < 0.5 else b'{"a":' * depth + b"1" + b"}" * depth
    if r < 0.9:
        return b'{"type":"ping","id":"' + rng.choice(INVALID_UTF8) + b'"}'
    return junk(rng, 200)


def message(rng: random.Random) -> dict:
    """A client message as JSON, right or subtly wrong (types, sizes, unknown fields)."""
    ids = [0, -1, 7, 2 ** 53, 2 ** 64, 1e308, -1e308, 0.5, "x", "", None, True, [], {}, "i" * 300]
    kind = rng.random()
    if kind < 0.5:
        msg = {"type": "ping"}
        if rng.random() < 0.8:
            msg["id"] = rng.choice(ids)
    elif kind < 0.75:
        msg = {"type": "start", "hostKey": rng.choice(["", "0" * 48, "f" * 47, "g" * 48, 5, None, "k" * 4000])}
    else:
        msg = {"type": rng.choice(["", "PING", "launch", "snapshot", "start ", "ping\u0000", 7, None])}
    if rng.random() < 0.1:
        msg["extra"] = {"nested": [1, 2, {"x": "y" * rng.randint(0, 100)}]}
    return msg


def mutate(rng: random.Random, data: bytes, rounds: int) -> bytes:
    """Byte-level havoc on a valid stream: flips, boundary bytes, inserts, deletes, repeats."""
    buf = bytearray(data or b"\x00")
    for _ in range(rounds):
        op, pos = rng.randrange(7), rng.randrange(len(buf)) if buf else 0
        if not buf:
            buf += rng.randbytes(4)
        elif op == 0:
            buf[pos] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[pos] = rng.choice((0x00, 0x01, 0x7E, 0x7F, 0x80, 0x81, 0xFE, 0xFF))
        elif op == 2:
            buf[pos:pos] = rng.randbytes(rng.randint(1, 16))
        elif op == 3:
            del buf[pos:pos + rng.randint(1, 16)]
        elif op == 4:
            end = min(len(buf), pos + rng.randint(1, 64))
            buf[pos:pos] = buf[pos:end] * rng.randint(1, 4)
        elif op == 5:
            del buf[rng.randint(1, len(buf)):]
        else:
            buf[pos:pos + 8] = rng.randrange(1 << 64).to_bytes(8, "big")
    return bytes(buf)
