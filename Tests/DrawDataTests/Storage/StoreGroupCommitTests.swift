@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// `inOneTransaction`: many writes, one commit; each write still succeeds or fails on its own,
    /// and a group that fails as a whole keeps nothing.
    struct StoreGroupCommitTests {
        @Test func manyWritesInOneGroupAreAllKept() throws {
            try StoreFixtures.withStore { store, _ in
                let plans = (1...40).map { StoreFixtures.plan($0) }
                try store.inOneTransaction { () throws(StorageError) in
                    for plan in plans {
                        try store.insertStarted(StoreFixtures.started(plan))
                        try store.stampStarted(drawId: plan.drawId, startedAt: 5)
                        try store.recordRound(drawId: plan.drawId, round: 1, sentAt: 7)
                    }
                }
                for plan in plans {
                    let record = try #require(try store.record(id: plan.drawId))
                    #expect(record.status == .running && record.startedAt == 5 && record.roundsShown == 1)
                }
            }
        }

        @Test func aFailingWriteLeavesNothingOfItselfAndTheOthersAreKept() throws {
            try StoreFixtures.withStore { store, _ in
                let a = StoreFixtures.plan(1), b = StoreFixtures.plan(2)
                var failures: [StorageError] = []
                try store.inOneTransaction { () throws(StorageError) in
                    try store.insertStarted(StoreFixtures.started(a))
                    // A duplicate, a round of a draw that does not exist, a round past the plan:
                    // each fails alone, and its partial work (the UPDATE before the check) is undone.
                    for write in [{ try store.insertStarted(StoreFixtures.started(a, startedAt: 99)) },
                                  { try store.recordRound(drawId: b.drawId, round: 1, sentAt: 1) },
                                  { try store.recordRound(drawId: a.drawId, round: 11, sentAt: 1) }] {
                        if let error = storageError(write) { failures.append(error) }
                    }
                    try store.recordRound(drawId: a.drawId, round: 1, sentAt: 10)
                    try store.insertStarted(StoreFixtures.started(b))
                }
                #expect(failures == [.duplicateDraw(drawId: a.drawId), .unknownDraw(drawId: b.drawId),
                                     .unknownRound(drawId: a.drawId, round: 11)])
                let recordA = try #require(try store.record(id: a.drawId))
                #expect(recordA.startedAt == StoreFixtures.started(a).startedAt, "the duplicate changed nothing")
                #expect(recordA.roundsShown == 1)
                #expect(try store.record(id: b.drawId)?.status == .running)
            }
        }

        @Test func aGroupThatFailsKeepsNothingAndTheStoreGoesOn() throws {
            try StoreFixtures.withStore { store, _ in
                let a = StoreFixtures.plan(1), b = StoreFixtures.plan(2)
                let error = storageError {
                    try store.inOneTransaction { () throws(StorageError) in
                        try store.insertStarted(StoreFixtures.started(a))
                        throw .writeFailed(path: store.path, operation: "test", reason: "the group gives up")
                    }
                }
                #expect(error == .writeFailed(path: store.path, operation: "test", reason: "the group gives up"))
                #expect(try store.record(id: a.drawId) == nil, "returned normally, but not kept")
                try store.insertStarted(StoreFixtures.started(b))
                #expect(try store.record(id: b.drawId) != nil)
            }
        }

        /// A full disk inside a group: nothing of the group is kept, the group says so, and the
        /// writes made again alone (what the storage thread does) get their own exact results.
        @Test func aFullDiskFailsTheGroupAndNothingIsHalfKept() throws {
            try StoreFixtures.withStore { store, _ in
                let small = StoreFixtures.plan(1)
                try store.insertStarted(StoreFixtures.started(small))
                try StoreFixtures.fill(store)
                let big = StoreFixtures.bigPlan(2)
                var inside: [StorageError?] = []
                let groupError = storageError {
                    try store.inOneTransaction { () throws(StorageError) in
                        inside.append(storageError { try store.recordRound(drawId: small.drawId, round: 1, sentAt: 1) })
                        inside.append(storageError { try store.insertStarted(StoreFixtures.started(big)) })
                        inside.append(storageError { try store.recordRound(drawId: small.drawId, round: 2, sentAt: 2) })
                    }
                }
                // SQLite rolls the whole transaction back on a full disk: the write after the
                // failure is refused without touching the file (alone, it would commit on its
                // own), and the group reports the failure.
                #expect(inside.count == 3 && inside[0] == nil)
                #expect(inside[1].map { "\($0)" }?.contains("full") == true)
                #expect(inside[2].map { "\($0)" }?.contains("the transaction of its group failed") == true)
                guard case .writeFailed(_, "commit a group of writes", let reason)? = groupError else {
                    Issue.record("expected the group to fail, got \(String(describing: groupError))")
                    return
                }
                #expect(reason.contains("full"))
                #expect(try store.record(id: small.drawId)?.roundsShown == 0, "round 1 returned normally, but was not kept")
                #expect(try store.record(id: big.drawId) == nil)

                // Room again: the store takes writes as before.
                try StoreFixtures.unfill(store)
                try store.insertStarted(StoreFixtures.started(big))
                #expect(try store.record(id: big.drawId) != nil)
            }
        }
    }
}
