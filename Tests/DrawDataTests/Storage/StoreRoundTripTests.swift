@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    struct StoreRoundTripTests {
        /// FAIRNESS.md §7's second example: this id and seed pick the void entry last.
        static let voidPlan = DrawPlan.make(drawId: "00112233445566778899aabbccddeeff",
                                            entrants: StoreFixtures.unicodePlayers, warnings: StoreFixtures.allWarnings,
                                            seed: StoreFixtures.voidSeed, schedule: StoreFixtures.decelerating)

        @Test func finishedDrawComesBackFieldForField() throws {
            let plan = Self.voidPlan
            #expect(plan.outcome == .noWinner(drawn: StoreFixtures.unicodePlayers[3]))
            let started = StoreFixtures.started(plan, room: "team-ä")
            try StoreFixtures.withStore { store, _ in
                try StoreFixtures.runToEnd(started, in: store, finishedAt: 1_732_262_404_000.75)
                let record = try #require(try store.record(id: plan.drawId))

                let expected = DrawRecord(
                    drawId: plan.drawId, room: "team-ä", status: .finished, createdAt: started.createdAt,
                    startedAt: started.startedAt, finishedAt: 1_732_262_404_000.75, sources: StoreFixtures.sources,
                    entrants: plan.entrants, warnings: StoreFixtures.allWarnings, commitment: plan.commitment,
                    entrantsHash: plan.entrantsHash, schedule: StoreFixtures.decelerating,
                    plannedRounds: plan.rounds.map {
                        RecordedRound(round: $0.round, offsetMs: $0.offsetMs, pickIndex: $0.pickIndex, player: $0.player,
                                      sentAt: started.startedAt + Double($0.round))
                    },
                    plannedDrawn: plan.outcome.drawn, storedSeed: plan.seed, failure: nil, abortReason: nil)
                #expect(record == expected)
                // The parts the issue names, spelled out so a failure says which one broke.
                #expect(record.entrants.map(\.name) == StoreFixtures.unicodePlayers.map(\.name))
                #expect(record.entrants.map(\.isVoid) == [false, false, false, true])
                #expect(record.warnings == StoreFixtures.allWarnings)
                #expect(record.schedule?.pace == .decelerating(firstMs: 100, lastMs: 900))
                #expect(record.rounds.map(\.offsetMs) == StoreFixtures.decelerating.roundOffsetsMs)
                #expect(record.outcome == .noWinner(drawn: StoreFixtures.unicodePlayers[3]))
                #expect(record.seed == plan.seed)
                #expect(record.roundsShown == 10)
            }
        }

        /// A stored schedule keeps its countdown; one written before countdowns reads as none.
        @Test func scheduleKeepsItsCountdown() throws {
            let counted = try #require(RoundSchedule(rounds: 4, pace: .fixed(intervalMs: 300), countdownMs: 3000))
            #expect(try StoredJSON.schedule(from: StoredJSON.schedule(counted)) == counted)
            #expect(try StoredJSON.schedule(from: #"{"rounds":4,"pace":"fixed","intervalMs":300}"#)
                    == RoundSchedule(rounds: 4, pace: .fixed(intervalMs: 300)))
            #expect(!StoredJSON.schedule(StoreFixtures.decelerating).contains("countdownMs"))
        }

        @Test func entrantsColumnIsTheCanonicalEncodingTheHashCovers() throws {
            let plan = Self.voidPlan
            try StoreFixtures.withStore { store, _ in
                try store.insertStarted(StoreFixtures.started(plan))
                let stored = try store.withConnection { db in
                    try db.scalarText("""
                        SELECT l.json FROM draws d JOIN entrant_lists l ON l.sha256 = d.entrants_hash WHERE d.draw_id = ?
                        """, [.text(plan.drawId)])
                }
                #expect(stored.map { Array($0.utf8) } == EntrantsEncoding.canonicalJSON(plan.entrants))
            }
        }

        @Test func failedDrawIsRecordedWithoutSeedOrPlan() throws {
            let error = DrawError.noPlayers(warnings: [.unknownUser(userId: 7)])
            let failed = FailedDrawRecord(drawId: StoreFixtures.drawId(77), room: "lobby", error: error,
                                          sources: StoreFixtures.sources, createdAt: 100.5, failedAt: 180.25)
            try StoreFixtures.withStore { store, _ in
                try store.insertFailed(failed)
                let record = try #require(try store.record(id: failed.drawId))
                #expect(record.status == .failed)
                #expect(record.failure == DrawFailure(code: "no_players", message: error.message))
                #expect(record.warnings == [.unknownUser(userId: 7)])
                #expect(record.sources == StoreFixtures.sources)
                #expect(record.createdAt == 100.5 && record.finishedAt == 180.25 && record.startedAt == nil)
                #expect(record.seed == nil && record.entrants.isEmpty && record.rounds.isEmpty)
                #expect(record.commitment == nil && record.schedule == nil && record.outcome == nil)
                #expect(record.verify() == nil)

                let page = try store.list(room: "lobby", page: DrawPageRequest())
                #expect(page.draws.map(\.failureCode) == ["no_players"])
                #expect(page.draws.first?.entrantCount == 0)
            }
        }

        @Test func abortedDrawKeepsItsReasonAndShownRounds() throws {
            let plan = StoreFixtures.plan(5)
            try StoreFixtures.withStore { store, _ in
                try store.insertStarted(StoreFixtures.started(plan))
                try store.recordRound(drawId: plan.drawId, round: 1, sentAt: 1.5)
                try store.recordRound(drawId: plan.drawId, round: 2, sentAt: 2.5)
                try store.finish(drawId: plan.drawId, ending: .aborted(reason: "server_shutdown"), finishedAt: 3.5)
                let record = try #require(try store.record(id: plan.drawId))
                #expect(record.status == .aborted)
                #expect(record.abortReason == "server_shutdown")
                #expect(record.rounds.map(\.sentAt) == [1.5, 2.5] + Array(repeating: nil, count: 8))
                #expect(record.seed == plan.seed)
                // No result was announced, so none is served.
                #expect(record.outcome == nil)
            }
        }

        @Test func inMemoryDatabaseWorks() throws {
            let store = try SQLiteDrawStore(path: ":memory:")
            try StoreFixtures.runToEnd(StoreFixtures.started(StoreFixtures.plan(1)), in: store)
            #expect(try store.record(id: StoreFixtures.drawId(1))?.status == .finished)
            #expect(try store.schemaVersion() == DrawStoreSchema.currentVersion)
        }
    }
}
