@testable import DrawData
import DrawCore
import Foundation
import Testing

/// A draw's record in cluster mode on a real redis-server (issue 44): kept without its entrant
/// list, which it references by hash (one copy for every draw of it), and read back whole, byte
/// for byte; records kept before, the list inside, still read as they were.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisSharedRecordTests {
    static let line = Array(#"{"drawId":"d","status":"finished"}"#.utf8)

    /// A record body around `list`, and the list's place in it.
    static func body(_ id: String, around list: SharedEntrantList) -> SharedRecordBody {
        let head = Array(#"{"drawId":"\#(id)","entrants":"#.utf8), tail = Array(#","rounds":[]}"#.utf8)
        return SharedRecordBody(splitting: head + list.json + tail, entrantsAt: head.count..<(head.count + list.json.count))
    }

    static func open() throws -> (RedisServerProcess, RedisSharedDrawRecords) {
        let server = try RedisServerProcess()
        return (server, RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration())))
    }

    static func stored(_ records: RedisSharedDrawRecords, _ id: String) throws -> [UInt8] {
        guard case .string(let bytes) = try records.connection.command("GET", records.keyspace.drawKey(drawId: id)) else { return [] }
        return bytes
    }

    @Test func aRecordKeepsItsListOnceAndReadsBackWhole() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let big = RedisSharedEntrantsTests.list(5_000), small = RedisSharedEntrantsTests.list(3)
        // The big list was never kept by a `started`: the keep sends it along once asked.
        let first = Self.body("d1", around: big)
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line, body: first, token: 1, final: true) == .kept)
        let second = Self.body("d2", around: big)
        #expect(try records.keep(drawId: "d2", room: "quiz", summary: Self.line, body: second, token: 2, final: false) == .kept)
        let tiny = Self.body("d3", around: small)
        #expect(try records.keep(drawId: "d3", room: "quiz", summary: Self.line, body: tiny, token: 3, final: true) == .kept)

        #expect(try records.body(drawId: "d1") == first.whole)
        #expect(try records.body(drawId: "d2") == second.whole)
        #expect(try records.body(drawId: "d3") == tiny.whole)
        // What Redis holds per record does not grow with the list.
        let kept1 = try Self.stored(records, "d1"), kept3 = try Self.stored(records, "d3")
        #expect(kept1.count < 200 && kept1.count == kept3.count)
        #expect(!String(decoding: kept1, as: UTF8.self).contains("Entrant 1"))
        #expect(try RedisSharedEntrantsTests.keys("entrant-list:*", records)
                == [records.keyspace.entrantListKey(hash: big.hash), records.keyspace.entrantListKey(hash: small.hash)].sorted())
        // The draw's entrants are its record's list: the entrants endpoint reads it too.
        #expect(try records.entrants(drawId: "d2") == big)
    }

    @Test func aRecordKeptBeforeWithItsListInsideStillReads() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let whole = Self.body("old", around: RedisSharedEntrantsTests.list(4)).whole
        _ = try records.connection.command([Array("SET".utf8), Array(records.keyspace.drawKey(drawId: "old").utf8), whole])
        #expect(try records.body(drawId: "old") == whole)
        #expect(try records.body(drawId: "never") == nil)
    }

    @Test func aListUnderItsHashWithOtherBytesIsRefusedAndNothingIsWritten() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let list = RedisSharedEntrantsTests.list(4)
        _ = try records.connection.command("SET", records.keyspace.entrantListKey(hash: SHA256Hex.of(list.json)), "[]")
        #expect(throws: CoordinationError.self) {
            try records.keep(drawId: "d", room: "quiz", summary: Self.line, body: Self.body("d", around: list), token: 1, final: true)
        }
        #expect(try records.body(drawId: "d") == nil)
    }

    @Test(arguments: ["entrants zz 3\n{}", "entrants \(String(repeating: "a", count: 64)) 99\n{}",
                      "entrants \(String(repeating: "a", count: 64)) 9999999999999999999999\n{}",
                      "entrants \(String(repeating: "a", count: 64))\n{}", "entrants "])
    func aBrokenReferenceIsAnErrorNotARecord(stored: String) throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        _ = try records.connection.command("SET", records.keyspace.drawKey(drawId: "bad"), stored)
        #expect(throws: CoordinationError.self) { try records.body(drawId: "bad") }
    }

    @Test func aReferenceWhoseListIsGoneIsAnError() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let list = RedisSharedEntrantsTests.list(5)
        try records.keep(drawId: "d", room: "quiz", summary: Self.line, body: Self.body("d", around: list), token: 1, final: true)
        _ = try records.connection.command("DEL", records.keyspace.entrantListKey(hash: list.hash))
        #expect(throws: CoordinationError.self) { try records.body(drawId: "d") }
    }
}
