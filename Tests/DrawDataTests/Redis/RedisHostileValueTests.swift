@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Issue 36, finding 7, on a real redis-server: hostile numbers written straight into the keys
/// the cluster shares are read back through the adapters as errors or nothing, never a trap; and
/// a subscriber that cannot make its wake pipe (out of descriptors) says so and tries again.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisHostileValueTests {
    @Test func hostileNumbersInRedisAreRefusedByTheAdapters() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        defer { connection.close() }
        let keys = RedisKeyspace()

        // Escrow: a negative count shown is no escrow.
        _ = try connection.command("HSET", keys.escrowKey(room: "quiz"), "drawId", "d", "seed", "ab",
                                   "roundsShown", "-1", "node", "n")
        #expect(try RedisFencedDrawLog(connection: connection).escrowed(room: "quiz") == nil)
        _ = try connection.command("HSET", keys.escrowKey(room: "quiz"), "roundsShown", "3")
        #expect(try RedisFencedDrawLog(connection: connection).escrowed(room: "quiz")?.roundsShown == 3, "in range it reads")

        // Presence: a report that would never expire is skipped; this node's own still counts.
        _ = try connection.command("HSET", keys.presenceKey(room: "quiz"), "evil", "5:1e300")
        // Expiry is by Redis' clock (`TIME`), so only the node and count are compared.
        let reports = try RedisPresenceBoard(connection: connection).report(room: "quiz", node: "me", viewers: 2, ttlMs: 1_000)
        #expect(reports.map(\.node) == ["me"] && reports.map(\.viewers) == [2])

        // History: a score that is no position (ZADD takes inf and fractions) is an unexpected reply.
        let records = RedisSharedDrawRecords(connection: connection)
        for score in ["+inf", "-5", "1.5"] {
            _ = try connection.command("ZADD", keys.historyKey(room: "h\(score)"), score, "d")
            _ = try connection.command("HSET", keys.historyLinesKey(room: "h\(score)"), "d", "{}")
            #expect(throws: CoordinationError.self, "\(score)") {
                try records.page(room: "h\(score)", request: DrawPageRequest(limit: 5))
            }
        }

        // Scheduled draws: a time past year 9999 is a read error, not a timer that traps.
        let store = RedisRoomStore(connection: connection)
        let draw = RedisScheduledDrawTests.draw(1, room: "quiz", at: 5_000)
        #expect(try store.schedule(draw))
        let hostile = StoredJSON.scheduled(draw).replacingOccurrences(of: #""at":5000"#, with: #""at":1e300"#)
        _ = try connection.command("SET", keys.scheduledKey(drawId: draw.drawId), hostile)
        #expect(throws: StorageError.self) { try store.scheduledDraws() }

        // Rooms: a time that is no time (a room that would never expire) is a read error.
        try store.createRoom(RoomRecord(name: "room", keyHash: HostKeyHash(of: "key"),
                                        createdAt: 1_000))
        #expect(try store.room(named: "room")?.createdAt == 1_000, "in range it reads")
        for time in ["NaN", "1e300", "-1"] {
            _ = try connection.command("HSET", keys.roomKey(room: "room"), "lastActivityAt", time)
            #expect(throws: StorageError.self, "\(time)") { try store.room(named: "room") }
        }
    }

    /// `WakePipe` used to `precondition` on `pipe()`: a node out of descriptors crashed. Now the
    /// subscriber reports it on its link and tries again after the backoff, then works.
    @Test func aSubscriberWithoutAWakePipeReportsItAndRetries() throws {
        let server = try RedisServerProcess()
        let attempts = Inbox<Int32>()
        let inbox = Inbox<[UInt8]>()
        let subscriber = RedisSubscriber(configuration: server.configuration(backoffMaxMs: 50), makeWakePipe: {
            () throws(WakePipe.Failure) -> WakePipe in
            attempts.append(EMFILE)
            // The first two attempts fail as `pipe()` does when the process has no descriptor left.
            return try WakePipe(makePipe: { fds in
                guard attempts.count > 2 else { errno = EMFILE; return -1 }
                return pipe(fds)
            })
        }, onMessage: { _, payload in inbox.append(payload) })
        subscriber.subscribe("c")
        subscriber.start()
        defer { subscriber.stop() }
        #expect(eventually { subscriber.subscribedChannels == ["c"] })
        #expect(attempts.count == 3, "two failures, then a pipe")
        #expect(subscriber.link.lastError?.contains("wake pipe") == true && subscriber.link.lastError?.contains("errno \(EMFILE)") == true,
                "\(subscriber.link.lastError ?? "no error")")
        let publisher = RedisConnection(configuration: server.configuration())
        defer { publisher.close() }
        #expect(try publisher.command("PUBLISH", "c", "after") == .integer(1))
        #expect(eventually { inbox.all == [Array("after".utf8)] })
    }

    /// `stop()` while the pipe still cannot be made ends the thread (it looks every 50 ms).
    @Test func aSubscriberWithoutAWakePipeStillStops() throws {
        let server = try RedisServerProcess()
        let subscriber = RedisSubscriber(configuration: server.configuration(backoffMaxMs: 60_000), makeWakePipe: {
            () throws(WakePipe.Failure) -> WakePipe in throw WakePipe.Failure(errno: EMFILE)
        }, onMessage: { _, _ in })
        subscriber.start()
        #expect(eventually { subscriber.link.lastError != nil })
        let began = ContinuousClock.now
        subscriber.stop()
        #expect(ContinuousClock.now - began < .seconds(2), "stopped without waiting out the backoff")
        #expect(subscriber.link.state == .down)
    }
}
