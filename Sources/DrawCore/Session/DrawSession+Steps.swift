/// The transitions of `DrawSession`, one method per input, and the steps they share.
extension DrawSession {
    mutating func start(at t: DrawInstant) -> [DrawEffect] {
        guard canStart else { return [] }
        attempts += 1
        phase = .loading(attempt: attempts, createdAt: t.epochMs)
        outstanding += 1
        return [.publish(.loading(at: t.epochMs)), .loadPlayers(attempt: attempts)]
    }

    /// Only the current attempt's players count: an attempt aborted meanwhile answers too, late.
    mutating func playersLoaded(attempt: UInt64, _ result: Result<MergeResult, DrawError>,
                                at t: DrawInstant) -> [DrawEffect] {
        guard case .loading(let current, let createdAt) = phase, current == attempt else { return [] }
        let merge: MergeResult
        switch result {
        case .failure(let error): return fail(error, createdAt: createdAt, at: t)
        case .success(let m): merge = m
        }
        let winners = configuration.planner.winners
        guard DrawPlan.isValidWinnerCount(winners, entrants: merge.players.count) else {
            return fail(.tooFewEntrants(entrants: merge.players.count, winners: winners), createdAt: createdAt, at: t)
        }
        guard let plan = plan(merge, at: t) else { return fail(.beaconUnavailable, createdAt: createdAt, at: t) }
        return planned(plan, createdAt: createdAt, at: t)
    }

    /// A plan was made: write it (or, without records, publish it at once).
    mutating func planned(_ plan: DrawPlan, createdAt: Double, at t: DrawInstant) -> [DrawEffect] {
        // Provisional times: `begin` stamps both again when `started` actually goes out, after
        // the plan's write, and the rounds are paced from there.
        let running = Running(plan: plan, createdAt: createdAt, startedAt: t.epochMs,
                              pacer: DrawPacer(schedule: plan.schedule, startedNanos: t.nanos), shown: [])
        guard configuration.recordsDraws else { return begin(running, at: t) }
        phase = .recordingStart(running)
        return [write(.started(NewDrawRecord(room: configuration.room, plan: plan, sources: configuration.sources,
                                             createdAt: createdAt, startedAt: t.epochMs)))]
    }

    /// A write returned. Only the one the current draw waits for, or a failed stamp of the
    /// running draw, changes anything; any other answer (an abort's or a failure's record, one of
    /// a draw that ended meanwhile) is the shell's to log.
    mutating func written(_ write: DrawWrite, error: StorageError?, at t: DrawInstant) -> [DrawEffect] {
        switch (write, phase) {
        case (.started, .recordingStart(let r)) where r.plan.drawId == write.drawId:
            // Not durable: the commitment was never shown, so nothing is revealed.
            return error == nil ? begin(r, at: t) : fail(.storageFailure, createdAt: r.createdAt, at: t)
        case (.startedAt, .running(let r)) where r.plan.drawId == write.drawId && error != nil,
             (.round, .running(let r)) where r.plan.drawId == write.drawId && error != nil,
             (.beacon, .running(let r)) where r.plan.drawId == write.drawId && error != nil:
            // A draw is never carried on without its record.
            return end(r, reason: Self.storageFailureReason, at: t)
        case (.finish(_, .finished, _, _), .recordingResult(let r, let finishedAt)) where r.plan.drawId == write.drawId:
            // Never announce a result the history does not hold.
            return error == nil ? announce(r, finishedAt: finishedAt) : end(r, reason: Self.storageFailureReason, at: t)
        default:
            return []
        }
    }

    /// Shows the next round, or, after the last one, finishes.
    mutating func timerDue(at t: DrawInstant) -> [DrawEffect] {
        guard case .running(var r) = phase else { return [] }
        if r.awaitingHostSince != nil { return hostWaitExpired(at: t) }
        if r.plan.isAwaitingBeacon { return awaitBeacon(r, at: t) }
        let plan = r.plan
        r.pacer.sent(atNanos: t.nanos)
        let index = r.shown.count
        if plan.revealsEachWinner, r.slot < plan.winners, index >= r.slot * plan.roundsPerWinner {
            return reveal(r, at: t)
        }
        guard index < plan.rounds.count else {
            guard configuration.recordsDraws else { return announce(r, finishedAt: t.epochMs) }
            phase = .recordingResult(r, finishedAt: t.epochMs)
            return [write(.finish(drawId: plan.drawId, ending: .finished, finishedAt: t.epochMs, seed: plan.seed))]
        }
        r.shown.append(t.epochMs)
        phase = .running(r)
        // The stamp after the publish, with the very sentAt the wire carried. Not waited for: the
        // store keeps the stamps in order, and a failure aborts the draw.
        var effects: [DrawEffect] = [.publish(.round(plan, index: index, sentAtMs: t.epochMs))]
        if configuration.recordsDraws {
            effects.append(write(.round(drawId: plan.drawId, round: plan.rounds[index].round, sentAt: t.epochMs)))
        }
        return effects + wakeForNextStep(r)
    }

    /// A running draw ends as `aborted` (seed revealed); a loading one is forgotten; one whose
    /// plan is being written is dropped unpublished (its record is closed behind the plan's
    /// write); one whose result is being written is left to finish.
    mutating func abort(reason: String, at t: DrawInstant) -> [DrawEffect] {
        switch phase {
        case .idle, .recordingResult:
            return []
        case .loading:
            phase = .idle
            return []
        case .recordingStart(let r):
            phase = .idle
            // Queued behind the plan's write: if that made it to disk, this closes the record;
            // if not, it fails as `unknownDraw`, which is only logged.
            return [write(.finish(drawId: r.plan.drawId, ending: .aborted(reason: reason), finishedAt: t.epochMs,
                                  seed: r.plan.seed))]
        case .running(let r):
            return end(r, reason: reason, at: t)
        }
    }

    // MARK: steps

    /// The plan is durable (or nothing is recorded): publish `started`, stamped now, pace the
    /// rounds from this moment, and record the stamp (queued behind the plan's write).
    private mutating func begin(_ planned: Running, at t: DrawInstant) -> [DrawEffect] {
        var r = planned
        r.startedAt = t.epochMs
        r.slotStartedAt = t.epochMs
        r.pacer = DrawPacer(schedule: r.plan.schedule, startedNanos: t.nanos)
        phase = .running(r)
        var effects: [DrawEffect] = [.publish(.started(r.plan, startedAt: r.startedAt))]
        if configuration.recordsDraws {
            effects.append(write(.startedAt(drawId: r.plan.drawId, startedAt: r.startedAt)))
        }
        // A beacon draw first wakes at its round's time, to fetch it (`DrawSession+Beacon`).
        if let beacon = r.plan.beacon, r.plan.isAwaitingBeacon {
            return effects + [.wake(atNanos: Self.nanos(atEpochMs: beacon.roundAtMs, from: t))]
        }
        return effects + wakeForNextStep(r)
    }

    /// The result is durable (or nothing is recorded): publish `finished`.
    private mutating func announce(_ r: Running, finishedAt: Double) -> [DrawEffect] {
        phase = .idle
        let finished = DrawEffect.publish(.finished(r.plan, startedAt: r.startedAt, finishedAt: finishedAt))
        guard r.plan.revealsEachWinner else { return [finished] }
        // The last winner's reveal, then the result with the seed: clients that know only
        // `finished` get every winner from it.
        return [.publish(.winner(r.plan, slot: r.plan.winners, sentAtMs: finishedAt, next: .finished)), finished]
    }

    /// No draw: publish `failed`, then record the attempt.
    mutating func fail(_ error: DrawError, createdAt: Double, at t: DrawInstant) -> [DrawEffect] {
        phase = .idle
        var effects: [DrawEffect] = [.publish(.failed(error))]
        if configuration.recordsDraws {
            let record = FailedDrawRecord(drawId: DrawIdentifier.generate(using: configuration.random),
                                          room: configuration.room, error: error, sources: configuration.sources,
                                          createdAt: createdAt, failedAt: t.epochMs)
            effects.append(write(.failed(record)))
        }
        return effects
    }

    /// Stops a published draw early: `aborted` with the seed (so the rounds shown stay
    /// verifiable), then its record. The publish does not wait for the write: revealing the
    /// seed of a stopped draw is always allowed (startup recovery would reveal it too).
    mutating func end(_ r: Running, reason: String, at t: DrawInstant) -> [DrawEffect] {
        phase = .idle
        var effects: [DrawEffect] = [.cancelWake, .publish(.aborted(r.plan, roundsShown: r.shown.count, reason: reason))]
        if configuration.recordsDraws {
            effects.append(write(.finish(drawId: r.plan.drawId, ending: .aborted(reason: reason),
                                         finishedAt: t.epochMs, seed: r.plan.seed)))
        }
        return effects
    }

    /// A write effect, counted until its answer arrives (`hasWork`).
    mutating func write(_ w: DrawWrite) -> DrawEffect {
        outstanding += 1
        return .write(w)
    }

    func wakeForNextStep(_ r: Running) -> [DrawEffect] {
        guard let due = r.pacer.dueNanos else { return [] }
        return [.wake(atNanos: due)]
    }
}
