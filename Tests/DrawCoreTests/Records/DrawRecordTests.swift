import DrawCore
import Testing

/// The reveal rules live in the read models' initialisers, whatever store builds them.
struct DrawRecordTests {
    static let plan = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                    seed: Fixtures.exampleSeed, schedule: .original)

    /// A record as a store would build it, with rounds 1...shown stamped; `winners` and `slots`
    /// default to the plan's.
    static func record(_ status: DrawStatus, shown: Int, plan: DrawPlan = plan, winners: Int? = nil,
                       slots: [WinnerPick]? = nil) -> DrawRecord {
        DrawRecord(drawId: plan.drawId, room: "lobby", status: status, createdAt: 1, startedAt: 2,
                   finishedAt: status.isEnded ? 3 : nil, sources: DrawSources(usersURL: "u", lotteryURL: "l"),
                   entrants: plan.entrants, warnings: [], commitment: plan.commitment,
                   entrantsHash: plan.entrantsHash, schedule: plan.schedule,
                   plannedRounds: plan.rounds.map {
                       RecordedRound(round: $0.round, offsetMs: $0.offsetMs, pickIndex: $0.pickIndex,
                                     player: $0.player, sentAt: $0.round <= shown ? Double($0.round) : nil)
                   },
                   plannedDrawn: plan.outcome.drawn, storedSeed: plan.seed, failure: nil, abortReason: nil,
                   winners: winners ?? plan.winners, plannedWinnerPicks: slots ?? plan.winnerPicks,
                   beacon: plan.beacon)
    }

    @Test func runningRecordNeverHoldsTheSeedTheFutureRoundsOrTheOutcome() {
        let running = Self.record(.running, shown: 4)
        #expect(running.seed == nil)
        #expect(running.rounds.map(\.round) == [1, 2, 3, 4])
        #expect(running.outcome == nil)
        #expect(running.verificationInputs == nil && running.verify() == nil)
    }

    @Test(arguments: [DrawStatus.aborted, .interrupted])
    func stoppedRecordRevealsSeedAndAllPicksButNoOutcome(status: DrawStatus) {
        let record = Self.record(status, shown: 4)
        #expect(record.seed == Self.plan.seed)
        #expect(record.rounds.count == 10 && record.roundsShown == 4)
        #expect(record.outcome == nil)
        #expect(record.verify()?.isValid == true)
    }

    @Test func finishedRecordHasEverything() {
        let record = Self.record(.finished, shown: 10)
        #expect(record.seed == Self.plan.seed)
        #expect(record.outcome == .winner(Fixtures.samplePlayers[2]))
        #expect(record.verificationInputs?.recomputedPlan() == Self.plan)
    }

    @Test func summaryShowsOutcomeOnlyWhenFinished() {
        func summary(_ status: DrawStatus) -> DrawSummary {
            DrawSummary(drawId: "d", room: "r", status: status, createdAt: 1, startedAt: 2, finishedAt: nil,
                        entrantCount: 4, roundsShown: 3, commitment: "c", plannedDrawn: Fixtures.samplePlayers[3],
                        failureCode: nil)
        }
        #expect(summary(.finished).outcome == .noWinner(drawn: Fixtures.samplePlayers[3]))
        for status in [DrawStatus.running, .aborted, .interrupted] { #expect(summary(status).outcome == nil) }
    }

    @Test func onlyRunningIsNotEnded() {
        #expect(DrawStatus.allCases.filter { !$0.isEnded } == [.running])
        #expect(DrawEnding.aborted(reason: "x").status == .aborted && DrawEnding.finished.status == .finished)
    }
}

struct DrawPageRequestTests {
    @Test func defaultsAndValidValuesParse() throws {
        #expect(try DrawPageRequest.parse(limit: nil, cursor: nil) == DrawPageRequest())
        let request = try DrawPageRequest.parse(limit: "100", cursor: "42")
        #expect(request.limit == 100 && request.after?.position == 42)
        #expect(try DrawPageRequest.parse(limit: "1", cursor: nil).limit == 1)
    }

    @Test func badValuesSayWhichParameter() {
        #expect(throws: PageRequestError.limitOutOfRange(0)) { try DrawPageRequest.parse(limit: "0", cursor: nil) }
        #expect(throws: PageRequestError.limitNotANumber("ten")) { try DrawPageRequest.parse(limit: "ten", cursor: nil) }
        #expect(throws: PageRequestError.badCursor("a1")) { try DrawPageRequest.parse(limit: nil, cursor: "a1") }
        #expect(PageRequestError.limitOutOfRange(0).code == "bad_limit")
        #expect(PageRequestError.badCursor("").code == "bad_cursor")
    }

    @Test func cursorTokenRoundTrips() throws {
        let cursor = try #require(DrawCursor(position: 123))
        #expect(try DrawCursor(token: cursor.token) == cursor)
        #expect(DrawCursor(position: 0) == nil)
    }

    /// Only tokens the server hands out are cursors (docs/openapi.yaml: `^[1-9][0-9]{0,17}$`):
    /// an empty `cursor=` and a leading zero are refused like any other non-token, never read as
    /// "no cursor" or as another position.
    @Test func onlyHandedOutTokensAreCursors() throws {
        for bad in ["", "0", "042", "0000", "1234567890123456789", "+5", " 5"] {
            #expect(throws: PageRequestError.badCursor(bad)) { try DrawPageRequest.parse(limit: nil, cursor: bad) }
        }
        #expect(try DrawCursor(token: "999999999999999999").position == 999_999_999_999_999_999)
    }
}

struct StorageErrorTests {
    @Test func everyMessageIsOneLineEvenWhenTheCauseIsNot() {
        let errors: [StorageError] = [
            .cannotOpen(path: "/d/x.sqlite", reason: "line one\nline two"),
            .corrupt(path: "/d/x.sqlite", detail: "a\r\nb"),
            .writeFailed(path: "/d/x.sqlite", operation: "op", reason: "disk\nfull"),
            .migrationFailed(path: "/d/x.sqlite", toVersion: 2, reason: "x\ny"),
            .locked(path: "/d/x.sqlite", waitedMs: 5), .readOnly(path: "/d/x.sqlite"),
            .newerSchema(path: "/d/x.sqlite", found: 9, supported: 2),
        ]
        for error in errors {
            #expect(!error.description.contains("\n") && !error.description.contains("\r"))
            #expect(error.description.contains("/d/x.sqlite"))
        }
    }

    @Test func failedRecordTakesCodeMessageAndWarningsFromTheDrawError() {
        let error = DrawError.noPlayers(warnings: [.unknownUser(userId: 5)])
        let record = FailedDrawRecord(drawId: "id", room: "lobby", error: error,
                                      sources: DrawSources(usersURL: "u", lotteryURL: "l"), createdAt: 1, failedAt: 2)
        #expect(record.failure == DrawFailure(code: "no_players", message: error.message))
        #expect(record.warnings == [.unknownUser(userId: 5)])
    }
}
