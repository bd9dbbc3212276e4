@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The room lease on a real redis-server: one owner at a time, only the owner renews or
/// releases, and an unrenewed lease lapses so another node can take over.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisRoomLeaseTests {
    @Test func twoOwnersContendAndOnlyOneWins() throws {
        let server = try RedisServerProcess()
        let nodeA = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        let nodeB = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        defer { nodeA.connection.close(); nodeB.connection.close() }

        // Both race for the same room from two threads, many times over: exactly one wins each.
        for round in 0..<20 {
            let room = "race-\(round)"
            let wins = Inbox<String>()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let (lease, owner) = i == 0 ? (nodeA, "node-a") : (nodeB, "node-b")
                if (try? lease.acquire(room: room, owner: owner, ttlMs: 10_000)) != nil { wins.append(owner) }
            }
            #expect(wins.count == 1, "round \(round): \(wins.all)")
            #expect(try nodeA.owner(ofRoom: room) == wins.all.first)
        }
        // The holder itself cannot acquire again (it renews instead).
        let holder = try #require(try nodeA.owner(ofRoom: "race-0"))
        #expect(try nodeA.acquire(room: "race-0", owner: holder, ttlMs: 10_000) == nil)
    }

    @Test func theLoserCannotRenewOrReleaseTheWinnersLease() throws {
        let server = try RedisServerProcess()
        let lease = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        defer { lease.connection.close() }
        let token = try #require(try lease.acquire(room: "quiz", owner: "winner", ttlMs: 10_000))
        #expect(try lease.acquire(room: "quiz", owner: "loser", ttlMs: 10_000) == nil)
        #expect(try lease.renew(room: "quiz", owner: "loser", token: token, ttlMs: 60_000) == .refused)
        #expect(try lease.release(room: "quiz", owner: "loser") == false)
        #expect(try lease.owner(ofRoom: "quiz") == "winner")
        let pttl = try lease.connection.command("PTTL", RedisKeyspace().leaseKey(room: "quiz"))
        guard case .integer(let left) = pttl else { Issue.record("PTTL answered \(pttl)"); return }
        #expect(left > 0 && left <= 10_000, "the loser's renew did not extend it")

        #expect(try lease.renew(room: "quiz", owner: "winner", token: token, ttlMs: 60_000) == .kept)
        guard case .integer(let extended) = try lease.connection.command("PTTL", RedisKeyspace().leaseKey(room: "quiz")) else { return }
        #expect(extended > 10_000)
        #expect(try lease.release(room: "quiz", owner: "winner"))
        #expect(try lease.owner(ofRoom: "quiz") == nil)
        #expect(try lease.release(room: "quiz", owner: "winner") == false, "released once only")
        #expect(try lease.acquire(room: "quiz", owner: "loser", ttlMs: 10_000) ?? 0 > token, "free again, a newer token")
    }

    @Test func anUnrenewedLeaseLapsesAndAnotherNodeTakesIt() throws {
        let server = try RedisServerProcess()
        let lease = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        defer { lease.connection.close() }
        let old = try #require(try lease.acquire(room: "quiz", owner: "dies", ttlMs: 150))
        #expect(try lease.acquire(room: "quiz", owner: "heir", ttlMs: 5_000) == nil)
        // Redis expires it; wait for that (not a fixed sleep), then the other node takes over.
        #expect(eventually(within: 3) { (try? lease.owner(ofRoom: "quiz")) == .some(nil) })
        let heir = try #require(try lease.acquire(room: "quiz", owner: "heir", ttlMs: 5_000))
        #expect(heir > old)
        // The old owner, back from a pause, can neither extend nor drop the heir's lease.
        #expect(try lease.renew(room: "quiz", owner: "dies", token: old, ttlMs: 5_000) == .refused)
        #expect(try lease.release(room: "quiz", owner: "dies") == false)
        #expect(try lease.owner(ofRoom: "quiz") == "heir")
    }

    /// Fencing (issue 27): a lapsed lease nobody else took is taken back with its token; tokens
    /// only grow, also across a restart of Redis that lost every key, so a holder from before
    /// the restart can never pass for a newer one.
    @Test func tokensOnlyGrowAndALapsedLeaseIsTakenBackOnlyIfNobodyWasGrantedTheRoom() throws {
        let server = try RedisServerProcess()
        let lease = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        defer { lease.connection.close() }
        let first = try #require(try lease.acquire(room: "quiz", owner: "a/1", ttlMs: 100))
        #expect(eventually(within: 3) { (try? lease.owner(ofRoom: "quiz")) == .some(nil) })
        // Lapsed, not taken: the holder takes it back with the same token.
        #expect(try lease.renew(room: "quiz", owner: "a/1", token: first, ttlMs: 100) == .retaken)
        #expect(try lease.owner(ofRoom: "quiz") == "a/1")
        #expect(eventually(within: 3) { (try? lease.owner(ofRoom: "quiz")) == .some(nil) })
        let second = try #require(try lease.acquire(room: "quiz", owner: "b/1", ttlMs: 10_000))
        #expect(second > first)
        // Taken by another: refused, and the other's lease is untouched.
        #expect(try lease.renew(room: "quiz", owner: "a/1", token: first, ttlMs: 100) == .refused)
        #expect(try lease.owner(ofRoom: "quiz") == "b/1")

        // Redis restarts empty: the fence key is gone, yet the next grant's token is larger.
        try server.restart()
        #expect(eventually(within: 5) { (try? lease.owner(ofRoom: "quiz")) == .some(nil) })
        // The holder from before the restart takes its lease back (nobody was granted the room).
        #expect(try lease.renew(room: "quiz", owner: "b/1", token: second, ttlMs: 100) == .retaken)
        #expect(eventually(within: 3) { (try? lease.owner(ofRoom: "quiz")) == .some(nil) })
        let third = try #require(try lease.acquire(room: "quiz", owner: "c/1", ttlMs: 10_000))
        #expect(third > second)
        #expect(try lease.renew(room: "quiz", owner: "b/1", token: second, ttlMs: 100) == .refused)
    }

    @Test func badArgumentsAndAnAbsentRedisAreCoordinationErrors() throws {
        let server = try RedisServerProcess()
        let lease = RedisRoomLease(connection: RedisConnection(configuration: server.configuration()))
        #expect(throws: CoordinationError.invalidArgument("empty lease owner")) {
            try lease.acquire(room: "quiz", owner: "", ttlMs: 1_000)
        }
        #expect(throws: CoordinationError.self) { try lease.acquire(room: "quiz", owner: "a", ttlMs: 0) }
        server.kill()
        #expect {
            try lease.acquire(room: "quiz", owner: "a", ttlMs: 1_000)
        } throws: { error in
            guard case CoordinationError.unavailable = error else { return false }
            return true
        }
        lease.connection.close()
    }
}
