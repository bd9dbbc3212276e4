/// The transitions of a draw committed to a beacon round (`docs/FAIRNESS.md` §9).
///
/// Such a draw is planned without picks: `started` publishes the commitment with round `R`, and
/// the countdown lasts until `R`'s publication (plus `BeaconSettings.fetchAllowanceMs`). At `R`'s
/// time the session asks for the round (`fetchBeacon`), retrying every `retryMs` while the
/// answers fail, until `waitMs` after `R`'s time; an answer that is not round `R`, or whose
/// randomness is not SHA-256 of its signature, counts as a failure. With the round, the plan is
/// resolved (every pick), recorded (`DrawWrite.beacon`), and the rounds follow on the plan's
/// pacing, late by as much as the fetch was. Past the wait the draw ends as `aborted` with
/// `beacon_unavailable`: the seed is revealed, no pick was ever made, and it never falls back to
/// the seed alone.
extension DrawSession {
    /// A plan for `merge`: committed to a beacon round when the session has a beacon (`nil` when
    /// the chain cannot name one), else today's scheme.
    func plan(_ merge: MergeResult, redrawOf: RedrawLink? = nil, at t: DrawInstant) -> DrawPlan? {
        guard let beacon = configuration.beacon else { return configuration.planner.execute(merge, redrawOf: redrawOf) }
        return configuration.planner.execute(merge, redrawOf: redrawOf, beacon: beacon, plannedAtMs: t.epochMs)
    }

    /// A wake-up of a draw whose plan awaits its round: wait for `R`'s time, then fetch (one fetch
    /// at a time), or give up past the wait.
    mutating func awaitBeacon(_ running: Running, at t: DrawInstant) -> [DrawEffect] {
        // A scheduled draw's R was committed before this server's beacon was (re)configured: with
        // no beacon, or another chain, it cannot be fetched. One that starts at or after R's
        // time (late, after a restart) would show a round public before its start: no verifier
        // accepts that, so it ends too. Both reveal the seed; neither falls back to it alone.
        guard let beacon = running.plan.beacon, let settings = configuration.beacon,
              settings.chain.hash == beacon.chainHash, running.startedAt < beacon.roundAtMs else {
            return end(running, reason: Self.beaconUnavailableReason, at: t)
        }
        if t.epochMs < beacon.roundAtMs { return [.wake(atNanos: Self.nanos(atEpochMs: beacon.roundAtMs, from: t))] }
        let deadlineMs = beacon.roundAtMs + Double(settings.waitMs)
        if t.epochMs >= deadlineMs { return end(running, reason: Self.beaconUnavailableReason, at: t) }
        let deadline = DrawEffect.wake(atNanos: Self.nanos(atEpochMs: deadlineMs, from: t))
        guard !running.fetchingBeacon else { return [deadline] }
        var r = running
        r.fetchingBeacon = true
        phase = .running(r)
        outstanding += 1
        return [.fetchBeacon(drawId: r.plan.drawId, chainHash: beacon.chainHash, round: beacon.round), deadline]
    }

    /// A fetch returned. Only the running draw's, while it awaits its round, counts.
    mutating func beaconFetched(drawId: String, _ result: Result<BeaconRound, BeaconFetchError>,
                                at t: DrawInstant) -> [DrawEffect] {
        guard case .running(var r) = phase, r.plan.drawId == drawId, r.plan.isAwaitingBeacon, r.fetchingBeacon,
              let beacon = r.plan.beacon, let settings = configuration.beacon else { return [] }
        r.fetchingBeacon = false
        if case .success(let value) = result, let resolved = r.plan.resolved(with: value) {
            r.plan = resolved
            phase = .running(r)
            let record: [DrawEffect] = configuration.recordsDraws ? [write(.beacon(resolved))] : []
            return record + wakeForNextStep(r)
        }
        phase = .running(r)
        let deadlineMs = beacon.roundAtMs + Double(settings.waitMs)
        if t.epochMs >= deadlineMs { return end(r, reason: Self.beaconUnavailableReason, at: t) }
        let retryMs = min(t.epochMs + Double(BeaconSettings.retryMs), deadlineMs)
        return [.wake(atNanos: Self.nanos(atEpochMs: retryMs, from: t))]
    }

    /// The monotonic time of wall-clock `epochMs`, read against `t`; `t`'s own when it has passed.
    /// Bounded to an hour ahead, so no wall-clock value can overflow it.
    static func nanos(atEpochMs epochMs: Double, from t: DrawInstant) -> UInt64 {
        let aheadMs = min(max(0, epochMs - t.epochMs), 3_600_000)
        guard aheadMs.isFinite else { return t.nanos }
        return t.nanos &+ UInt64(aheadMs * 1_000_000)
    }
}
