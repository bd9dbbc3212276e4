import DrawCore
@testable import DrawPresentation
import Foundation
import Testing

/// Issue 36, finding 7: anyone who can publish to Redis (no cluster secret) chooses every number
/// of an envelope. `ClusterEnvelope.decode` checked lengths, not ranges, so `plannedAt: -1e300`
/// decoded, and trapped the receiver where it became nanoseconds (`ClusterMetrics`) or
/// microseconds again (`JSONWriter.millis`). Every such value must be refused as malformed.
struct HostileEnvelopeTests {
    /// One header field's text: what it is, and whether a node could have written it.
    struct Value {
        let json: String?
        let valid: Bool
    }

    static let wire = Array(#"{"type":"round"}"#.utf8), view = Array(#"{"i":1}"#.utf8)

    /// The numbers a hostile publisher tries, per field; `nil` leaves the field out.
    static let times: [Value] = [
        Value(json: "1700000000000.5", valid: true), Value(json: "0", valid: true),
        Value(json: "-1e300", valid: false), Value(json: "1e300", valid: false), Value(json: "-1", valid: false),
        Value(json: "253402300800000", valid: false), Value(json: "1e309", valid: false),
        Value(json: #""NaN""#, valid: false), Value(json: #""-inf""#, valid: false), Value(json: "true", valid: false),
        Value(json: "9223372036854775807", valid: false), Value(json: nil, valid: false),
    ]
    static let indices: [Value] = [
        Value(json: "0", valid: true), Value(json: "2", valid: true), Value(json: nil, valid: true),
        Value(json: "-1", valid: false), Value(json: "-9223372036854775808", valid: false),
        Value(json: "18446744073709551616", valid: false), Value(json: "1e300", valid: false),
        Value(json: "2.5", valid: false), Value(json: #""2""#, valid: false),
    ]
    static let tokens: [Value] = [
        Value(json: "7", valid: true), Value(json: "9223372036854775807", valid: true), Value(json: nil, valid: true),
        Value(json: "-1", valid: false), Value(json: "18446744073709551615", valid: false),
        Value(json: "18446744073709551616", valid: false), Value(json: "-1e300", valid: false),
        Value(json: #""7""#, valid: false),
    ]
    /// A length: `nil` is the true one (the section's count).
    static let lengths: [Value] = [
        Value(json: nil, valid: true), Value(json: "-1", valid: false), Value(json: "9223372036854775807", valid: false),
        Value(json: "-9223372036854775808", valid: false), Value(json: "18446744073709551616", valid: false),
        Value(json: "1e300", valid: false), Value(json: #""7""#, valid: false), Value(json: "0", valid: false),
    ]

    static func message(plannedAt: Value, sentAt: Value, index: Value, token: Value, wireLength: Value,
                        viewLength: Value) -> [UInt8] {
        var fields = [#""v":1"#, #""node":"node-a""#, #""kind":"round""#, #""drawId":"00112233445566778899aabbccddeeff""#]
        func add(_ name: String, _ value: Value, orElse fallback: String? = nil) {
            if let text = value.json ?? fallback { fields.append("\"\(name)\":\(text)") }
        }
        add("index", index)
        add("plannedAt", plannedAt)
        add("sentAt", sentAt)
        add("wire", wireLength, orElse: String(wire.count))
        add("view", viewLength, orElse: String(view.count))
        add("token", token)
        return Array("{\(fields.joined(separator: ","))}\n".utf8) + wire + view
    }

    /// What a receiving node does with an envelope it accepted: fold it into the view, write it
    /// again. Neither may trap on anything `decode` let through.
    static func use(_ envelope: ClusterEnvelope) {
        var view = RemoteRoomView()
        view.apply(ClusterEnvelope(node: "n", kind: .started, drawId: envelope.drawId, plannedAt: 1, sentAt: 1, wire: []))
        view.apply(envelope)
        #expect(ClusterEnvelope.decode(envelope.encode()) == envelope, "an accepted envelope writes and reads back")
    }

    /// The finding's own case, on its own: before the fix it decoded, and its re-encoding trapped.
    @Test(arguments: ["-1e300", "1e300", "-1", "253402300800000"])
    func anOutOfRangeTimeIsRefused(_ time: String) {
        let good = Value(json: "1700000000000", valid: true), bad = Value(json: time, valid: false)
        let none = Value(json: nil, valid: true)
        #expect(ClusterEnvelope.decode(Self.message(plannedAt: bad, sentAt: good, index: none, token: none,
                                                    wireLength: none, viewLength: none)) == nil)
        #expect(ClusterEnvelope.decode(Self.message(plannedAt: good, sentAt: bad, index: none, token: none,
                                                    wireLength: none, viewLength: none)) == nil)
        #expect(ClusterEnvelope.decode(Self.message(plannedAt: good, sentAt: good, index: none, token: none,
                                                    wireLength: none, viewLength: none)) != nil, "the same message in range decodes")
    }

    @Test func aNegativeIndexOrATokenPastInt64IsRefused() {
        let good = Value(json: "1700000000000", valid: true), none = Value(json: nil, valid: true)
        #expect(ClusterEnvelope.decode(Self.message(plannedAt: good, sentAt: good, index: Value(json: "-1", valid: false),
                                                    token: none, wireLength: none, viewLength: none)) == nil)
        #expect(ClusterEnvelope.decode(Self.message(plannedAt: good, sentAt: good, index: none,
                                                    token: Value(json: "18446744073709551615", valid: false),
                                                    wireLength: none, viewLength: none)) == nil)
    }

    /// Seeded, bounded: 2,000 headers mixing valid and hostile fields, then the same messages cut
    /// short and padded. A message decodes exactly when every field is valid, and whatever
    /// decodes can be used without a trap.
    @Test func fuzzedHeadersDecodeExactlyWhenEveryNumberIsInRange() {
        var rng = SeededNumbers(seed: 36)
        for _ in 0..<2_000 {
            let picks = [Self.times, Self.times, Self.indices, Self.tokens, Self.lengths, Self.lengths].map { $0[rng.below($0.count)] }
            let bytes = Self.message(plannedAt: picks[0], sentAt: picks[1], index: picks[2], token: picks[3],
                                     wireLength: picks[4], viewLength: picks[5])
            let decoded = ClusterEnvelope.decode(bytes)
            #expect((decoded != nil) == picks.allSatisfy(\.valid), "\(String(decoding: bytes, as: UTF8.self))")
            if let decoded, picks.allSatisfy(\.valid) { Self.use(decoded) }
            // With the sections' true lengths in the header, a cut or padded message never decodes
            // (with hostile lengths, some cut could match them: such a message is whole).
            guard picks[4].valid, picks[5].valid else { continue }
            #expect(ClusterEnvelope.decode(Array(bytes.prefix(rng.below(bytes.count)))) == nil)
            #expect(ClusterEnvelope.decode(bytes + Array(repeating: UInt8(ascii: "x"), count: 1 + rng.below(64))) == nil)
        }
    }
}

/// A small deterministic generator (an LCG): the same cases every run, so a failure reproduces.
struct SeededNumbers {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    /// A number in 0..<bound (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
