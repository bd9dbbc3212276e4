"""The fuzz suite's own parts; everything that talks to the server comes from Tests/e2e/helpers.

- config:   seed, time budget and replay selection, from LIVE_DRAW_FUZZ_* (one place).
- values:   the interesting numbers and byte strings the generators draw from.
- case:     one fuzz case: the steps sent over one connection, printable for a report.
- guards:   crashes main still has, which the generators steer around until they are fixed.
- wsgen:    WebSocket cases (frames after a normal upgrade).
- httpgen:  HTTP cases (raw request bytes on a fresh connection).
- runner:   plays one case over a real socket from a fuzz source address.
- oracle:   is the server alive, does /healthz answer, does a normal client get a full draw.
- campaign: batches until the time budget is spent, the oracle after each, triage on failure.
"""
