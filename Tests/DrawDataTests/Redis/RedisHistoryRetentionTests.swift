@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The shared history's retention (issue 44) on a real redis-server: an ended draw leaves Redis
/// after the window (record, entrants' reference, end claim, history line), a room keeps at most
/// its cap of lines, a list goes once no kept draw references it, and every end is in the ends
/// stream, readable whole (`archivable`) while Redis holds it.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisHistoryRetentionTests {
    static func records(on server: RedisServerProcess, windowMs: Int64 = 86_400_000, perRoom: Int = 1_000) -> RedisSharedDrawRecords {
        RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()),
                               retention: HistoryRetention(windowMs: windowMs, perRoom: perRoom))
    }

    static func line(_ id: String, _ status: String) -> [UInt8] { Array(#"{"drawId":"\#(id)","status":"\#(status)"}"#.utf8) }

    static func body(_ id: String, _ list: SharedEntrantList) -> SharedRecordBody {
        SharedRecordBody(head: Array(#"{"drawId":"\#(id)","entrants":"#.utf8), tail: Array("}".utf8), entrants: list)
    }

    static func id(_ n: Int) -> String { String(repeating: "0", count: 31) + String(n, radix: 16) }

    /// Redis' clock (`TIME`), in milliseconds.
    static func redisNowMs(_ records: RedisSharedDrawRecords) throws -> Int64 {
        guard case .array(let parts) = try records.connection.command("TIME"), parts.count == 2,
              let seconds = parts[0].text.flatMap({ Int64($0) }), let micros = parts[1].text.flatMap({ Int64($0) }) else { return 0 }
        return seconds * 1_000 + micros / 1_000
    }

    static func ttl(_ key: String, _ records: RedisSharedDrawRecords) throws -> Int64 {
        guard case .integer(let ms) = try records.connection.command("PTTL", key) else { return -3 }
        return ms
    }

    @Test func anEndedDrawExpiresAfterTheWindowAndARunningOneDoesNot() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server, windowMs: 60_000)
        defer { records.connection.close() }
        let list = RedisSharedEntrantsTests.list(50)
        let ended = Self.id(1), running = Self.id(2)
        try records.keepEntrants(drawId: ended, list)
        try records.keep(drawId: ended, room: "quiz", summary: Self.line(ended, "running"), body: Self.body(ended, list), token: 1, final: false)
        try records.keepEntrants(drawId: running, list)
        try records.keep(drawId: running, room: "quiz", summary: Self.line(running, "running"), body: Self.body(running, list), token: 2, final: false)
        // Running: nothing of it, nor its room's history, nor its list, expires.
        for key in [records.keyspace.drawKey(drawId: ended), records.keyspace.entrantListKey(hash: list.hash),
                    records.keyspace.historyKey(room: "quiz"), records.keyspace.historyLinesKey(room: "quiz")] {
            #expect(try Self.ttl(key, records) == -1, "\(key)")
        }
        try records.keep(drawId: ended, room: "quiz", summary: Self.line(ended, "finished"), body: Self.body(ended, list), token: 1, final: true)
        for key in [records.keyspace.drawKey(drawId: ended), records.keyspace.entrantsKey(drawId: ended),
                    records.keyspace.drawEndKey(drawId: ended), records.keyspace.historyKey(room: "quiz")] {
            let ttl = try Self.ttl(key, records)
            #expect(ttl > 50_000 && ttl <= 60_000, "\(key): \(ttl)")
        }
        #expect(try Self.ttl(records.keyspace.drawKey(drawId: running), records) == -1)
        // The list: as long as its newest referencing draw's end; the running draw's own start
        // made it persist again.
        try records.keepEntrants(drawId: running, list)
        #expect(try Self.ttl(records.keyspace.entrantListKey(hash: list.hash), records) == -1)
        try records.keep(drawId: running, room: "quiz", summary: Self.line(running, "finished"), body: Self.body(running, list), token: 2, final: true)
        let listTTL = try Self.ttl(records.keyspace.entrantListKey(hash: list.hash), records)
        #expect(listTTL > 50_000 && listTTL <= 60_000)
    }

    @Test func linesPastTheWindowOrTheRoomsCapLeaveAndListsWithThem() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server, windowMs: 1_000, perRoom: 3)
        defer { records.connection.close() }
        let old = RedisSharedEntrantsTests.list(40), fresh = RedisSharedEntrantsTests.list(41)
        let first = Self.id(1)
        try records.keep(drawId: first, room: "quiz", summary: Self.line(first, "finished"), body: Self.body(first, old), token: 1, final: true)
        // Past the window, Redis lets go of the record, its reference, its claim and its list by
        // itself; the line goes with the room's next end.
        #expect(eventually(within: 5) {
            (try? records.body(drawId: first)) == nil
                && (try? records.connection.command("EXISTS", records.keyspace.entrantListKey(hash: old.hash))) == .integer(0)
        })
        for n in 2...6 {
            let id = Self.id(n)
            try records.keep(drawId: id, room: "quiz", summary: Self.line(id, "finished"), body: Self.body(id, fresh), token: 1, final: true)
        }
        let page = try records.page(room: "quiz", request: DrawPageRequest(limit: 10))
        // The cap: the room's 3 newest; the first left with the window.
        #expect(page.summaries == [6, 5, 4].map { Self.line(Self.id($0), "finished") })
        #expect(try records.connection.command("HLEN", records.keyspace.historyLinesKey(room: "quiz")) == .integer(3))
        #expect(try records.connection.command("ZCARD", records.keyspace.historyEndsKey(room: "quiz")) == .integer(3))
        // A draw past the cap is still readable until its window ends.
        #expect(try records.body(drawId: Self.id(2)) != nil)
        // Nothing left once the window passed after the last end.
        #expect(eventually(within: 5) {
            let left = try? RedisSharedEntrantsTests.keys("*", records)
            return left?.allSatisfy { [records.keyspace.endsKey, records.keyspace.endsSequenceKey, records.keyspace.historySequenceKey].contains($0) } == true
        })
    }

    @Test func everyEndIsInTheEndsStreamOnceAndReadsWholeForTheArchive() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server)
        defer { records.connection.close() }
        let list = RedisSharedEntrantsTests.list(30)
        let a = Self.id(1), b = Self.id(2)
        try records.keep(drawId: a, room: "quiz", summary: Self.line(a, "running"), body: Self.body(a, list), token: 1, final: false)
        #expect(try records.ends(after: nil, limit: 10).ends.isEmpty)
        try records.keep(drawId: a, room: "quiz", summary: Self.line(a, "finished"), body: Self.body(a, list), token: 1, final: true)
        try records.keep(drawId: a, room: "quiz", summary: Self.line(a, "finished"), body: Self.body(a, list), token: 1, final: true)  // a retry
        try records.keep(drawId: b, room: "fair", summary: Self.line(b, "failed"), body: Array(#"{"drawId":"b"}"#.utf8), token: 1, final: true)
        let page = try records.ends(after: nil, limit: 10)
        #expect(page.ends.map(\.drawId) == [a, b])
        #expect(page.ends.map(\.room) == ["quiz", "fair"])
        #expect(!page.gap)
        #expect(try records.ends(after: page.ends[0].cursor, limit: 10).ends.map(\.drawId) == [b])
        #expect(try records.ends(after: page.ends[1].cursor, limit: 10).ends.isEmpty)

        #expect(page.ends.map(\.position) == [1, 2])
        let archived = try #require(try records.archivable(page.ends[0]))
        #expect(archived.summary == Self.line(a, "finished"))
        #expect(archived.position == 1)
        #expect(archived.body == Self.body(a, list))
        // Once the room's cap let the line go, the draw is still archivable (the caller makes
        // its line from the record), in its place.
        _ = try records.connection.command("HDEL", records.keyspace.historyLinesKey(room: "quiz"), a)
        #expect(try records.archivable(page.ends[0])?.summary == [])
        #expect(try records.archivable(page.ends[0])?.position == 1)
        // A record Redis let go: nothing to archive.
        _ = try records.connection.command("DEL", records.keyspace.drawKey(drawId: b))
        #expect(try records.archivable(page.ends[1]) == nil)
    }

    @Test func aCursorOlderThanWhatTheStreamTrimmedIsAGap() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server, windowMs: 1_000)
        defer { records.connection.close() }
        let a = Self.id(1)
        try records.keep(drawId: a, room: "quiz", summary: Self.line(a, "failed"), body: Array("{}".utf8), token: 1, final: true)
        let cursor = try #require(try records.ends(after: nil, limit: 1).ends.first?.cursor)
        for n in 2...3 {
            let id = Self.id(n)
            try records.keep(drawId: id, room: "quiz", summary: Self.line(id, "failed"), body: Array("{}".utf8), token: 1, final: true)
        }
        // Past the window, further ends trim the stream; a reader still at the first cursor
        // missed ends it can no longer read.
        let before = try #require(try records.ends(after: cursor, limit: 10).ends.last?.cursor)
        // Past the window for all three ends, by Redis' own clock (what the script trims by),
        // not by a sleep.
        let lastMs = try #require(before.split(separator: "-").first.flatMap { Int64($0) })
        #expect(try eventually(within: 5) { try Self.redisNowMs(records) > lastMs + 1_000 })
        for n in 4...6 {
            let id = Self.id(n)
            try records.keep(drawId: id, room: "quiz", summary: Self.line(id, "failed"), body: Array("{}".utf8), token: 1, final: true)
        }
        #expect(try records.ends(after: cursor, limit: 500).gap)
        // A reader that had read every end the stream let go missed nothing.
        #expect(try !records.ends(after: before, limit: 500).gap)
        #expect(try records.ends(after: before, limit: 500).ends.count == 3)
    }

    @Test func streamEntriesThatNameNoDrawAreSkippedAndIdsMustBeStreamIds() throws {
        let text = { (t: String) in RedisReply.string(Array(t.utf8)) }
        let page = try RedisSharedDrawRecords.ends(from: .array([
            text("5-0"), text("not an id"), text("quiz"), text("4"), text("3"),
            text("6-0"), text(Self.id(2)), text("quiz"), text("5"), text("-7"),
            text("6-1"), text(Self.id(1)), text("quiz"), text("6"), text("9"),
        ]), after: nil)
        #expect(page.ends.map(\.isDraw) == [false, false, true])
        #expect(page.ends.last == SharedEnd(cursor: "6-1 6", drawId: Self.id(1), room: "quiz", position: 9))
        #expect(page.ends.first?.cursor == "5-0 4", "the cursor moves past an entry naming no draw")
        #expect(throws: CoordinationError.self) {
            try RedisSharedDrawRecords.ends(from: .array([text("-1"), text(""), text(""), text(""), text("")]), after: nil)
        }
        #expect(throws: CoordinationError.self) { try RedisSharedDrawRecords.ends(from: .integer(3), after: nil) }
        let next = [text("9-0"), text(Self.id(1)), text("quiz")]
        #expect(try RedisSharedDrawRecords.ends(from: .array(next + [text("8"), text("4")]), after: "8-5 6").gap)
        #expect(try !RedisSharedDrawRecords.ends(from: .array(next + [text("7"), text("4")]), after: "8-5 6").gap)
        // A number that is no number, or the largest, cannot trap the check.
        #expect(try !RedisSharedDrawRecords.ends(from: .array(next + [text("x"), text("4")]), after: "8-5 6").gap)
        #expect(try !RedisSharedDrawRecords.ends(from: .array(next + [text("1"), text("4")]), after: "8-5 18446744073709551615").gap)
    }
}
