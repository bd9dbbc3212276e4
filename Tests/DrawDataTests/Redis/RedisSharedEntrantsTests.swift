@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Draws' entrants in cluster mode on a real redis-server (issue 31): each list once, under its
/// hash, every draw referencing it; reads unchanged, also of draws kept before.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisSharedEntrantsTests {
    static func list(_ count: Int) -> SharedEntrantList {
        let day = CalendarDate(year: 2020, month: 1, day: 1)!
        let players = (1...count).map { Player(userId: $0, name: "Entrant \($0)", username: "u\($0)", regDate: day, isVoid: false) }
        return SharedEntrantList(hash: EntrantsEncoding.hash(players), json: EntrantsEncoding.canonicalJSON(players))
    }

    static func records(on server: RedisServerProcess) -> RedisSharedDrawRecords {
        RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()))
    }

    static func keys(_ pattern: String, _ records: RedisSharedDrawRecords) throws -> [String] {
        guard case .array(let names) = try records.connection.command("KEYS", records.keyspace.prefix + pattern) else { return [] }
        return names.compactMap(\.text).sorted()
    }

    @Test func drawsOfOneListShareOneCopy() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server)
        defer { records.connection.close() }
        let big = Self.list(2_000), small = Self.list(3)
        for n in 0..<50 { try records.keepEntrants(drawId: "d\(n)", big) }
        try records.keepEntrants(drawId: "s", small)
        try records.keepEntrants(drawId: "d0", big)   // kept again: same answer, still one copy

        for n in 0..<50 { #expect(try records.entrants(drawId: "d\(n)") == big) }
        #expect(try records.entrants(drawId: "s") == small)
        #expect(try records.entrants(drawId: "never") == nil)
        #expect(try Self.keys("entrant-list:*", records)
                == [records.keyspace.entrantListKey(hash: big.hash), records.keyspace.entrantListKey(hash: small.hash)].sorted())
        // A draw holds the 64-character hash, not the list.
        #expect(try records.connection.command("STRLEN", records.keyspace.entrantsKey(drawId: "d7")) == .integer(64))
    }

    @Test func aHashAlreadyNamingOtherBytesIsRefused() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server)
        defer { records.connection.close() }
        let list = Self.list(4)
        try records.keepEntrants(drawId: "a", list)
        var forged = list
        forged.json = Array("[]".utf8)
        do {
            try records.keepEntrants(drawId: "b", forged)
            Issue.record("a second list under one hash was kept")
        } catch {
            guard case .unexpectedReply(let message) = error else { throw error }
            #expect(message.contains("refused"))
        }
        #expect(try records.entrants(drawId: "b") == nil)
        #expect(try records.entrants(drawId: "a") == list)
    }

    /// Before issue 31 each draw's key held its hash, a newline and the whole list.
    @Test func aDrawKeptBeforeStillReads() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server)
        defer { records.connection.close() }
        let list = Self.list(5)
        _ = try records.connection.command([Array("SET".utf8), Array(records.keyspace.entrantsKey(drawId: "old").utf8),
                                            Array(list.hash.utf8) + [UInt8(ascii: "\n")] + list.json])
        #expect(try records.entrants(drawId: "old") == list)
    }

    @Test func aReferenceWithoutItsListIsAnErrorNotAnUnknownDraw() throws {
        let server = try RedisServerProcess()
        let records = Self.records(on: server)
        defer { records.connection.close() }
        let list = Self.list(6)
        try records.keepEntrants(drawId: "a", list)
        _ = try records.connection.command("DEL", records.keyspace.entrantListKey(hash: list.hash))
        #expect(throws: CoordinationError.self) { try records.entrants(drawId: "a") }
    }
}
