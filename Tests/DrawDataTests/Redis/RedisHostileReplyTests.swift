@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Issue 36, finding 7: a value read from Redis is whatever anyone who can write to Redis put
/// there. Each adapter's decoding (exposed as a pure function, so no Redis is needed to feed it)
/// refuses numbers out of range with its usual error or `nil`, never a trap: fuzzed with hostile
/// replies below, then the same values written into a real redis-server and read back.
struct RedisHostileReplyTests {
    static func s(_ text: String) -> RedisReply { .string(Array(text.utf8)) }

    /// The values a hostile store answers with.
    static let hostile: [RedisReply] = [
        .integer(.min), .integer(-1), .integer(0), .integer(.max), s("1e300"), s("-1e300"), s("-1"), s("0"), s("NaN"),
        s("inf"), s("-inf"), s("18446744073709551616"), s("9223372036854775807"), s(""), .string([0xff, 0xfe]), .null,
        .status("OK"), .error("ERR no"), .array([]), .array([.integer(1)]), s("1:1e300"), s("-5:100"),
    ]

    /// `reply` with one part (itself, or one element at any depth) replaced by a hostile value.
    static func mutate(_ reply: RedisReply, _ rng: inout ReconnectBackoffTests.Sequence) -> RedisReply {
        if case .array(let items) = reply, !items.isEmpty, Int.random(in: 0..<4, using: &rng) > 0 {
            var copy = items
            let i = Int.random(in: 0..<items.count, using: &rng)
            copy[i] = mutate(items[i], &rng)
            return .array(copy)
        }
        return hostile[Int.random(in: 0..<hostile.count, using: &rng)]
    }

    /// Runs `decode` on 400 seeded mutations of `valid`: no trap, and every answer it gives
    /// passes `check` (its numbers in range); an error is the other allowed outcome.
    static func fuzz<T>(_ valid: RedisReply, seed: UInt64, _ decode: (RedisReply) throws -> T, check: (T) -> Bool) throws {
        #expect(check(try decode(valid)), "the valid reply decodes")
        var rng = ReconnectBackoffTests.Sequence(state: seed)
        for _ in 0..<400 {
            let reply = mutate(valid, &rng)
            if let value = try? decode(reply) { #expect(check(value), "\(reply) gave \(value)") }
        }
    }

    static let batch = ["a", "b", "c"]

    @Test func missingDrawPositionsOutsideTheBatchAreRefused() throws {
        // `Int(i) - 1` trapped on Int64.min before.
        for position: Int64 in [.min, -1, 0, 4, .max] {
            #expect(throws: CoordinationError.self) {
                try RedisSharedDrawRecords.missing(from: .array([.integer(position)]), batch: Self.batch)
            }
        }
        #expect(try RedisSharedDrawRecords.missing(from: .array([.integer(1), .integer(3)]), batch: Self.batch) == ["a", "c"])
        try Self.fuzz(.array([.integer(2), .integer(3)]), seed: 1, { try RedisSharedDrawRecords.missing(from: $0, batch: Self.batch) },
                      check: { $0.allSatisfy(Self.batch.contains) })
    }

    @Test func historyPositionsThatAreNoPositionsAreRefused() throws {
        for score in ["0", "-1", "1e300", "inf", "NaN", "1.5", "9223372036854775807"] {
            #expect(throws: CoordinationError.self, "\(score)") {
                try RedisSharedDrawRecords.page(from: .array([.integer(1), Self.s(score), Self.s("d"), Self.s("line")]), limit: 5)
            }
        }
        let valid = RedisReply.array([.integer(2), Self.s("3"), Self.s("c"), Self.s("three"), Self.s("1"), Self.s("a"), Self.s("one")])
        let page = try RedisSharedDrawRecords.page(from: valid, limit: 1)
        #expect(page.summaries == [Array("three".utf8)] && page.next?.position == 3)
        try Self.fuzz(valid, seed: 2, { try RedisSharedDrawRecords.page(from: $0, limit: 1) },
                      check: { $0.summaries.count <= 1 && ($0.next?.position ?? 1) > 0 })
    }

    static func escrow(shown: String) -> RedisReply {
        .array([s(String(repeating: "ab", count: 16)), s(String(repeating: "cd", count: 32)), s(shown), s("node-a")])
    }

    @Test func anEscrowWhoseCountShownIsNoCountIsNone() throws {
        for shown in ["-1", "-9223372036854775808", "9223372036854775808", "1e300", "NaN", ""] {
            #expect(try RedisFencedDrawLog.escrow(from: Self.escrow(shown: shown)) == nil, "\(shown)")
        }
        #expect(try RedisFencedDrawLog.escrow(from: Self.escrow(shown: "4"))?.roundsShown == 4)
        try Self.fuzz(Self.escrow(shown: "4"), seed: 3, { try RedisFencedDrawLog.escrow(from: $0) }, check: { ($0?.roundsShown ?? 0) >= 0 })
    }

    @Test func presenceReportsOutOfRangeAreSkipped() throws {
        let reports = try RedisPresenceBoard.reports(from: .array([
            Self.s("a"), Self.s("3:1700000000000"), Self.s("forever"), Self.s("5:1e300"), Self.s("past"), Self.s("5:-1e300"),
            Self.s("nan"), Self.s("5:NaN"), Self.s("neg"), Self.s("-1:1700000000000"), Self.s("huge"), Self.s("99999999999999999999:1"),
        ]))
        #expect(reports == [PresenceReport(node: "a", viewers: 3, expiresAtMs: 1_700_000_000_000)])
        try Self.fuzz(.array([Self.s("a"), Self.s("3:1700000000000"), Self.s("b"), Self.s("1:5")]), seed: 4,
                      RedisPresenceBoard.reports(from:),
                      check: { $0.allSatisfy { $0.viewers >= 0 && EpochMillis.isInRange($0.expiresAtMs) } })
    }

    @Test func leaseTokensAndFenceAnswersAreInRange() throws {
        for token: Int64 in [0, -1, .min] {
            #expect(throws: CoordinationError.self) { try RedisRoomLease.grantedToken(.integer(token)) }
        }
        #expect(try RedisRoomLease.grantedToken(.integer(.max)) == UInt64(Int64.max))
        #expect(try RedisRoomLease.grantedToken(.null) == nil)
        try Self.fuzz(.integer(1_700_000_000_000_000), seed: 5, RedisRoomLease.grantedToken, check: { ($0 ?? 1) > 0 })
        try Self.fuzz(.array([.integer(0), .integer(9), Self.s("d"), Self.s("w")]), seed: 6, { try RedisFencedDrawLog.answer($0) }) {
            switch $0 {
            case .accepted(let receivers): return receivers >= 0
            case .refused(let newest, _): return newest > 0 && newest <= UInt64(Int64.max)
            case .alreadyEnded: return true
            }
        }
    }

    @Test func aViewReadNeverTraps() throws {
        let valid = RedisReply.array([.array([Self.s("{}"), Self.s("d"), Self.s("0"), .null, .null, .null, .null]),
                                      .array([Self.s("{\"r\":1}")])])
        #expect(try RedisRoomViewStore.view(from: valid).rounds.count == 1)
        try Self.fuzz(valid, seed: 7, { try RedisRoomViewStore.view(from: $0) }, check: { $0.head != nil || $0.rounds.isEmpty })
    }

    static let scheduled = StoredJSON.scheduled(RedisScheduledDrawTests.draw(1, room: "quiz", at: 5_000))

    @Test(arguments: [(#""at":5000"#, #""at":1e300"#), (#""at":5000"#, #""at":-1e300"#),
                      (#""createdAt":1000.5"#, #""createdAt":-1"#), (#""winners":2"#, #""winners":9223372036854775807"#),
                      (#""winners":2"#, #""winners":-1"#), (#""at":5000"#, #""at":"NaN""#)])
    func aScheduledDrawWithANumberOutOfRangeIsRefused(_ change: (String, String)) throws {
        #expect(Self.scheduled.contains(change.0), "the change applies")
        #expect(throws: StoredJSON.Invalid.self) {
            try StoredJSON.scheduled(from: Self.scheduled.replacingOccurrences(of: change.0, with: change.1))
        }
    }

    /// Seeded: 400 scheduled-draw texts with one number replaced; none traps, any accepted is sane.
    /// Issue 36: a node arms its scheduled draws' timers by its offset to Redis' `TIME`. A reply
    /// that is no time a draw can have (negative, past the year 9999, huge, micros out of range,
    /// not numbers) gives no offset, so the timers keep the last one; one in range does.
    @Test func aTimeReplyOutOfRangeGivesNoClockOffset() {
        func time(_ s: String, _ us: String) -> RedisReply { .array([.string(Array(s.utf8)), .string(Array(us.utf8))]) }
        let offset = { (reply: RedisReply) in RedisRoomStore.clockOffsetMs(time: reply, before: 1_000, after: 3_000) }
        #expect(offset(time("1700000000", "500000")) == Double(1_700_000_000_500 - 2_000))
        #expect(offset(time("253402300799", "0")) != nil, "the last second of the year 9999")
        for (s, us) in [("253402300800", "0"), ("-1", "0"), ("9223372036854775807", "0"), ("1700000000", "1000000"),
                        ("1700000000", "-1"), ("1e300", "0"), ("x", "0"), ("18446744073709551616", "0")] {
            #expect(offset(time(s, us)) == nil, "TIME \(s) \(us)")
        }
        #expect(offset(.array([])) == nil && offset(.integer(5)) == nil)
    }

    @Test func fuzzedScheduledDrawsNeverTrap() throws {
        #expect(try StoredJSON.scheduled(from: Self.scheduled).at == 5_000)
        let numbers = Self.scheduled.matches(of: /[:\[,](-?[0-9]+(?:\.[0-9]+)?)(?=[,\]}])/)
            .map { $0.output.1.startIndex..<$0.output.1.endIndex }
        let values = ["-1e300", "1e300", "-1", "0", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
                      "2.5", #""NaN""#, "null", "[]"]
        var rng = ReconnectBackoffTests.Sequence(state: 8)
        for _ in 0..<400 {
            let text = Self.scheduled.replacingCharacters(in: numbers[Int.random(in: 0..<numbers.count, using: &rng)],
                                                          with: values[Int.random(in: 0..<values.count, using: &rng)])
            guard let draw = try? StoredJSON.scheduled(from: text) else { continue }
            #expect(EpochMillis.isInRange(draw.at) && EpochMillis.isInRange(draw.createdAt)
                    && DrawPlan.isValidWinnerCount(draw.winners, entrants: draw.entrants.count), "\(text)")
        }
    }
}
