"""Seed, time budget and replay selection of a fuzz run, read from the environment in one place.

Every case is generated from `derive(seed, kind, batch, index)` alone, so the same seed gives the
same batches in the same order on any machine; the time budget only decides how many batches run.
"""
import hashlib
import os
import random
from dataclasses import dataclass
from typing import Optional

ENV_SEED = "LIVE_DRAW_FUZZ_SEED"          # master seed (decimal or 0x…); random when unset
ENV_SECONDS = "LIVE_DRAW_FUZZ_SECONDS"    # time budget of each fuzz test, in seconds
ENV_BATCH = "LIVE_DRAW_FUZZ_BATCH"        # run only this batch of the seed
ENV_CASE = "LIVE_DRAW_FUZZ_CASE"          # run only this case: SEED/BATCH/INDEX
ENV_UNGUARDED = "LIVE_DRAW_FUZZ_UNGUARDED"  # 1: generate known crashes too (see guards.py)

DEFAULT_SECONDS = 35.0   # per fuzz test; two tests keep `make test`'s fuzz part near 80 s
CASES_PER_BATCH = 40
CONCURRENCY = 12         # fuzz sockets open at once (each case uses one)


def derive(*parts) -> int:
    """A 64-bit seed from its parts; stable across Python versions (unlike hash())."""
    digest = hashlib.blake2b("/".join(str(p) for p in parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _int(text: str) -> int:
    return int(text, 0)


@dataclass(frozen=True)
class FuzzConfig:
    seed: int
    seconds: float
    only_batch: Optional[int] = None
    only_case: Optional[int] = None   # with only_batch: that one case
    unguarded: bool = False
    cases_per_batch: int = CASES_PER_BATCH
    concurrency: int = CONCURRENCY

    @classmethod
    def from_env(cls, env=os.environ) -> "FuzzConfig":
        seconds = float(env.get(ENV_SECONDS) or DEFAULT_SECONDS)
        unguarded = env.get(ENV_UNGUARDED, "") not in ("", "0")
        if env.get(ENV_CASE):
            seed, batch, index = (_int(p) for p in env[ENV_CASE].split("/"))
            return cls(seed, seconds, batch, index, unguarded)
        seed = _int(env[ENV_SEED]) if env.get(ENV_SEED) else random.SystemRandom().getrandbits(48)
        batch = _int(env[ENV_BATCH]) if env.get(ENV_BATCH) else None
        return cls(seed, seconds, batch, None, unguarded)

    def case_id(self, batch: int, index: int) -> str:
        """What LIVE_DRAW_FUZZ_CASE takes to replay this one case."""
        return f"{self.seed}/{batch}/{index}"

    def describe(self) -> str:
        what = (f"case {self.case_id(self.only_batch, self.only_case)}" if self.only_case is not None
                else f"batch {self.only_batch}" if self.only_batch is not None
                else f"{self.seconds:g} s of batches")
        guards = "unguarded" if self.unguarded else "known crashes guarded"
        return f"seed {self.seed} ({what}, {guards})"
