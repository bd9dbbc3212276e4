/// The transitions of a draw that reveals each winner with its own flips (`docs/FAIRNESS.md`
/// §5a), and of a redraw (§5b).
///
/// Winner `s`'s flips are paced like winner 1's, from its own start: the end of the pause after
/// winner `s−1`'s reveal (running on) or the host's "draw the next winner". Only the last
/// winner's reveal waits for the result's write, like `finished`: the earlier ones reveal no seed,
/// and the plan behind them is on disk since `started`.
extension DrawSession {
    /// The host asked for a redraw, decided by `RedrawLink.make`: plan it now (its players are
    /// the redrawn draw's, already read), as a draw of its own.
    mutating func redraw(_ link: RedrawLink, players: MergeResult, at t: DrawInstant) -> [DrawEffect] {
        guard canStart else { return [] }
        attempts += 1
        guard let plan = plan(players, redrawOf: link, at: t) else {
            return fail(.beaconUnavailable, createdAt: t.epochMs, at: t)
        }
        return planned(plan, createdAt: t.epochMs, at: t)
    }

    /// The current winner's flips were all shown: reveal it, then run on after a pause or wait
    /// for the host.
    mutating func reveal(_ running: Running, at t: DrawInstant) -> [DrawEffect] {
        var r = running
        let slot = r.slot
        r.revealedSlots = slot
        if configuration.planner.reveal == .eachByHost {
            r.awaitingHostSince = t.nanos
            phase = .running(r)
            let limit = t.nanos + UInt64(Self.hostWaitLimitMs) * 1_000_000
            return [.publish(.winner(r.plan, slot: slot, sentAtMs: t.epochMs, next: .awaitingHost)),
                    .wake(atNanos: limit)]
        }
        let pause = Double(Self.winnerPauseMs)
        let effects = [DrawEffect.publish(.winner(r.plan, slot: slot, sentAtMs: t.epochMs,
                                                  next: .runsOn(startsAt: t.epochMs + pause)))]
        return effects + startSlot(slot + 1, of: r, atMs: t.epochMs + pause,
                                   nanos: t.nanos + UInt64(Self.winnerPauseMs) * 1_000_000)
    }

    /// The host's "draw the next winner": only while the draw waits for it.
    mutating func nextWinner(at t: DrawInstant) -> [DrawEffect] {
        guard case .running(let r) = phase, r.awaitingHostSince != nil else { return [] }
        return [.publish(.nextWinner(r.plan, slot: r.slot + 1, startsAt: t.epochMs))]
            + startSlot(r.slot + 1, of: r, atMs: t.epochMs, nanos: t.nanos)
    }

    /// The host left the draw waiting past `hostWaitLimitMs`: it runs on as if asked. An early
    /// wake-up (none is armed for anything else meanwhile) changes nothing.
    mutating func hostWaitExpired(at t: DrawInstant) -> [DrawEffect] {
        guard case .running(let r) = phase, let since = r.awaitingHostSince else { return [] }
        let limit = since + UInt64(Self.hostWaitLimitMs) * 1_000_000
        guard t.nanos >= limit else { return [.wake(atNanos: limit)] }
        return nextWinner(at: t)
    }

    /// Winner `slot`'s flips are paced from `atMs` (monotonic `nanos`), as winner 1's from `started`.
    private mutating func startSlot(_ slot: Int, of running: Running, atMs: Double, nanos: UInt64) -> [DrawEffect] {
        var r = running
        r.slot = slot
        r.slotStartedAt = atMs
        r.awaitingHostSince = nil
        r.pacer = DrawPacer(schedule: r.plan.schedule, startedNanos: nanos)
        phase = .running(r)
        return wakeForNextStep(r)
    }
}
