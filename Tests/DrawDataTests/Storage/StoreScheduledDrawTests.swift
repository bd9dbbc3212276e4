@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// `scheduled_draws` (schema 10, its beacon round schema 11, issue 30) behind `ScheduledDrawStore`, on real database files.
    struct StoreScheduledDrawTests {
        static let t0 = 1_732_262_400_000.0

        static func draw(_ n: Int, room: String = "quiz", at: Double = t0 + 60_000, winners: Int = 2,
                         beacon: DrawBeacon? = nil) -> ScheduledDraw {
            let plan = StoreFixtures.plan(n)
            return ScheduledDraw(drawId: plan.drawId, room: room, at: at, createdAt: t0 + 0.5, seed: plan.seed,
                                 entrants: StoreFixtures.unicodePlayers, warnings: StoreFixtures.allWarnings,
                                 schedule: StoreFixtures.decelerating, winners: winners, reveal: .eachByHost,
                                 sources: StoreFixtures.sources, beacon: beacon)
        }

        static let beacon = DrawBeacon(chainHash: String(repeating: "5", count: 64), round: 34_325_813,
                                       roundAtMs: 1_795_780_803_000)

        @Test func aScheduledDrawReadsBackWholeAfterReopening() throws {
            try StoreFixtures.withTemporaryDirectory { dir throws in
                let path = dir.path("draws.sqlite")
                let store = try SQLiteDrawStore(path: path)
                #expect(try store.schedule(Self.draw(2, room: "b", at: Self.t0 + 9_000, beacon: Self.beacon)))
                #expect(try store.schedule(Self.draw(1, room: "a", at: Self.t0 + 5_000)))
                store.close()

                let reopened = try SQLiteDrawStore(path: path)
                defer { reopened.close() }
                #expect(try reopened.scheduledDraws() == [Self.draw(1, room: "a", at: Self.t0 + 5_000),
                                                          Self.draw(2, room: "b", at: Self.t0 + 9_000, beacon: Self.beacon)],
                        "soonest first, the beacon round kept")
                #expect(try reopened.scheduledDraw(id: Self.draw(1).drawId)?.room == "a")
                #expect(try reopened.scheduledDraw(id: StoreFixtures.drawId(99)) == nil)
            }
        }

        @Test func oneScheduledDrawPerRoom() throws {
            try StoreFixtures.withStore { store, _ throws in
                #expect(try store.schedule(Self.draw(1)))
                #expect(try !store.schedule(Self.draw(2)), "the room has one")
                #expect(try store.scheduledDraws().map(\.drawId) == [Self.draw(1).drawId])
            }
        }

        @Test func exactlyOneClaimGetsTheDraw() throws {
            try StoreFixtures.withStore { store, _ throws in
                let draw = Self.draw(1)
                #expect(try store.schedule(draw))
                #expect(try store.claim(drawId: draw.drawId) == draw)
                #expect(try store.claim(drawId: draw.drawId) == nil, "taken already")
                #expect(try store.scheduledDraws().isEmpty)
                // Claimed, the room may schedule again; a claimed draw put back is kept again.
                #expect(try store.schedule(draw))
            }
        }

        @Test func aDatabaseOfSchema9GainsTheTableAndItsBeaconColumn() throws {
            try StoreFixtures.withTemporaryDirectory { dir throws in
                let path = dir.path("draws.sqlite")
                try StoreFixtures.store(at: path, schemaVersion: 9).close()
                let current = try SQLiteDrawStore(path: path)
                defer { current.close() }
                #expect(try current.schemaVersion() == DrawStoreSchema.currentVersion)
                #expect(try current.schedule(Self.draw(1)) && current.schedule(Self.draw(2, room: "b", beacon: Self.beacon)))
                #expect(try current.scheduledDraws().map(\.beacon) == [nil, Self.beacon])
            }
        }
    }
}
