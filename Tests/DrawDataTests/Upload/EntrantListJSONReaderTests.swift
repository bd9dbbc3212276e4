import DrawCore
@testable import DrawData
import Foundation
import Testing

/// The one-pass JSON reader of uploads (issue 31): the same lists and the same refusals as the
/// decoder-based path it replaced (`LegacyJSONUpload`), strict JSON with each fault coded and
/// placed, every limit stopping the read, and the attack body refused at its first element.
struct EntrantListJSONReaderTests {
    static let roomy = PlainTextEntrantListTests.roomy

    static func new(_ body: [UInt8], limits: EntrantListLimits = roomy) -> Result<MergeResult, EntrantListError> {
        Result { () throws(EntrantListError) in
            guard body.count <= limits.maxBodyBytes else { throw .bodyTooLarge(list: "upload", limitBytes: limits.maxBodyBytes) }
            return try EntrantListJSONReader.readUpload(body, limits: limits, name: "upload")
        }
    }

    static func old(_ body: [UInt8], limits: EntrantListLimits = roomy) -> Result<MergeResult, EntrantListError> {
        Result { () throws(EntrantListError) in try LegacyJSONUpload.read(body, limits: limits) }
    }

    static func error(_ body: String, limits: EntrantListLimits = roomy) -> EntrantListError? {
        if case .failure(let e) = new(Array(body.utf8), limits: limits) { return e }
        return nil
    }

    static func user(_ id: Int, _ name: String = "A", _ username: String = "a") -> String {
        #"{"userId":\#(id),"name":"\#(name)","username":"\#(username)","regDate":"2020-01-02"}"#
    }

    // MARK: The same lists as before

    @Test func theSeedFixturesReadAsBefore() throws {
        let users = String(decoding: try Fixtures.contents(Fixtures.usersPath), as: UTF8.self)
        let lottery = String(decoding: try Fixtures.contents(Fixtures.lotteryPath), as: UTF8.self)
        let body = Array(#"{"users":\#(users),"usersInLottery":\#(lottery)}"#.utf8)
        let read = try Self.new(body, limits: .standard).get()
        #expect(read == (try Self.old(body, limits: .standard).get()))
        #expect(read == (try PlayerMerger.merge(users: Fixtures.users, entries: Fixtures.entries)))
    }

    @Test func randomValidListsReadAsBefore() throws {
        var rng = SeededRandom(seed: 31)
        for round in 0..<300 {
            let body = Array(RandomUpload.make(&rng).utf8)
            let new = Self.new(body), old = Self.old(body)
            #expect(new == old, "round \(round): \(String(decoding: body, as: UTF8.self))")
            if case .failure(let e) = old, e.code != "no_entrants" {
                Issue.record("round \(round): the generator made an invalid list: \(e)")
            }
        }
    }

    /// Bodies of the wrong shape: the same error, word for word, as the decoder-based path.
    @Test(arguments: [
        #"[]"#, #"{}"#, #"{"users":[]}"#, #"{"users":3,"usersInLottery":[]}"#, #"{"users":null,"usersInLottery":[]}"#,
        #"{"users":[],"usersInLottery":"x"}"#, #"{"users":[],"usersInLottery":[]}"#,
        #"{"users":[1,1,1],"usersInLottery":[]}"#, #"{"users":["x"],"usersInLottery":[]}"#,
        #"{"users":[null],"usersInLottery":[]}"#, #"{"users":[[]],"usersInLottery":[]}"#, #"{"users":[true],"usersInLottery":[]}"#,
        #"{"users":{},"usersInLottery":[]}"#, #"{"users":{"items":3},"usersInLottery":[]}"#,
        #"{"users":{"items":null},"usersInLottery":[]}"#, #"{"users":{"items":{}},"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":3,"username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":null,"username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":{"x":[1]},"username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":[],"username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":true,"username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":"1","name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":null,"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1.5,"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":9223372036854775808,"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":"A","username":"a"}],"usersInLottery":[]}"#,
        #"{"users":[{"regDate":7}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":"A","username":"a","regDate":"2020-02-30"}],"usersInLottery":[]}"#,
        #"{"users":[{"userId":1,"name":"A","username":"a","regDate":"a date far too long to be quoted back whole"}],"usersInLottery":[]}"#,
        #"{"users":[],"usersInLottery":[{"userId":1,"void":1}]}"#, #"{"users":[],"usersInLottery":[{"userId":1,"void":null}]}"#,
        #"{"users":[],"usersInLottery":[{"userId":1,"void":"true"}]}"#, #"{"users":[],"usersInLottery":[{"userId":1}]}"#,
        #"{"users":[],"usersInLottery":[5]}"#, #"{"users":[],"usersInLottery":{"lotteryList":"x"}}"#,
        #"{"users":[],"usersInLottery":{"other":[]}}"#,
    ])
    func wrongShapesAreRefusedAsBefore(_ body: String) {
        let new = Self.new(Array(body.utf8)), old = Self.old(Array(body.utf8))
        #expect(new == old)
        guard case .failure = new else { Issue.record("accepted \(body)"); return }
    }

    @Test func theWholeNumbersTheDecoderTook() throws {
        for (text, id) in [("1", 1), ("-0", 0), ("1.0", 1), ("1e2", 100), ("1E0", 1), ("0.1e1", 1),
                           ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min)] {
            let body = #"{"users":[{"userId":\#(text),"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[{"userId":\#(id),"void":false}]}"#
            #expect(try Self.new(Array(body.utf8)).get().players.map(\.userId) == [id], "\(text)")
        }
        for text in ["1.5", "1e400", "9223372036854775808", "-9223372036854775809", "1e-1"] {
            let body = #"{"users":[{"userId":\#(text),"name":"A","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#
            #expect(Self.error(body) == .invalidData(list: "users list", detail: "items[0].userId is not a whole number within the integer range"), "\(text)")
        }
    }

    // MARK: Strict JSON, each fault coded and placed

    static let syntaxCases: [(String, String)] = [
        (#"{"users":[],"usersInLottery":[]"#, "unexpected end of the text at byte 31"),
        (#"{"users":[],"usersInLottery":[]} x"#, "unexpected text after the JSON value at byte 33"),
        (#"{"x":[1,],"users":[],"usersInLottery":[]}"#, "expected a value after ',' at byte 8"),
        (#"{"users":[],"usersInLottery":[],}"#, "expected a value after ',' at byte 32"),
        (#"{"x":[01],"users":[],"usersInLottery":[]}"#, "expected ',' or ']' at byte 7"),
        (#"{"x":[-],"users":[],"usersInLottery":[]}"#, "expected a digit at byte 7"),
        (#"{"x":[1.],"users":[],"usersInLottery":[]}"#, "expected a digit at byte 8"),
        (#"{"x":[.5],"users":[],"usersInLottery":[]}"#, "unexpected byte 0x2e at byte 6"),
        (#"{"x":[tru],"users":[],"usersInLottery":[]}"#, "invalid literal at byte 6"),
        (#"{"a":"\x","users":[],"usersInLottery":[]}"#, "invalid escape at byte 6"),
        (#"{"a":"\u12G4","users":[],"usersInLottery":[]}"#, #"invalid \u escape at byte 6"#),
        (#"{"a":"\ud800","users":[],"usersInLottery":[]}"#, "a high surrogate without a low one at byte 6"),
        (#"{"a":"\ud800\u0041","users":[],"usersInLottery":[]}"#, "a high surrogate without a low one at byte 6"),
        (#"{"a":"\udc00","users":[],"usersInLottery":[]}"#, "a low surrogate without a high one at byte 6"),
        ("{\"a\":\"\t\",\"users\":[],\"usersInLottery\":[]}", "unescaped control character in a string at byte 6"),
        (#"{"a":"abc"#, "unterminated string at byte 9"),
        (#"{users:[]}"#, "expected a member name in quotes at byte 1"),
        (#"{"users"[]}"#, "expected ':' at byte 8"),
        ("", "unexpected end of the text at byte 0"),
    ]

    @Test(arguments: syntaxCases)
    func syntaxErrorsSayWhatAndWhere(_ body: String, _ detail: String) {
        #expect(Self.error(body) == .malformedJSON(list: "upload", detail: "the body must be one JSON object (\(detail))"))
        // The old path refused each as well, with the same code.
        #expect(Self.old(Array(body.utf8)).failure?.code == "list_malformed_json" || body.contains(",]") || body.contains(",}"))  // JSONSerialization took trailing commas
    }

    @Test func invalidUTF8IsRefusedWhereItIs() {
        let head = Array(#"{"users":[{"userId":1,"name":""#.utf8)
        let tail = Array(#"","username":"a","regDate":"2020-01-02"}],"usersInLottery":[]}"#.utf8)
        for bad: [UInt8] in [[0xC3, 0x28], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0xE2, 0x82]] {
            let e = Self.new(head + bad + tail).failure
            #expect(e == .malformedJSON(list: "upload", detail: "the body must be one JSON object (invalid UTF-8 at byte \(head.count))"))
            #expect(Self.old(head + bad + tail).failure?.code == "list_malformed_json")
        }
        // Valid UTF-8 of every length, raw and escaped (a surrogate pair), reads as the same name.
        let raw = Array(#"{"users":[\#(Self.user(1, "Zoë€🎲"))],"usersInLottery":[{"userId":1,"void":false}]}"#.utf8)
        let escaped = Array(#"{"users":[\#(Self.user(1, #"Zo\u00eb\u20ac\ud83c\udfb2"#))],"usersInLottery":[{"userId":1,"void":false}]}"#.utf8)
        #expect((try? Self.new(raw).get().players[0].name) == "Zoë€🎲")
        #expect((try? Self.new(escaped).get()) == (try? Self.new(raw).get()))
    }

    @Test func nestingIsBounded() {
        let ok = String(repeating: "[", count: 62) + String(repeating: "]", count: 62)
        let within = #"{"x":\#(ok),"users":[\#(Self.user(1))],"usersInLottery":[{"userId":1,"void":false}]}"#
        #expect(Self.error(within) == nil)
        let deep = #"{"x":"# + String(repeating: "[", count: 100_000)
        #expect(Self.error(deep) == .malformedJSON(list: "upload",
                                                   detail: "the body must be one JSON object (nested deeper than 64 levels at byte 68)"))
    }

    @Test func aRepeatedListMemberIsRefused() {
        #expect(Self.error(#"{"users":[],"users":[],"usersInLottery":[]}"#)
                == .invalidData(list: "upload", detail: #""users" is given twice"#))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let body = [0xEF, 0xBB, 0xBF] + Array(#"{"users":[\#(Self.user(1))],"usersInLottery":[{"userId":1,"void":true}]}"#.utf8)
        #expect(try Self.new(body).get() == (try Self.old(body).get()))
    }

    // MARK: The attack body, and the limits stopping the read

    @Test func sixteenMiBOfOnesIsRefusedAtTheFirstElement() {
        // As the bench's attack body: 16 MiB, the most an upload may be.
        let ones = ((16 << 20) - #"{"users":[1]}"#.utf8.count) / 2
        let body = Array(#"{"users":["#.utf8) + Array(repeating: Array("1,".utf8), count: ones).flatMap { $0 } + Array("1]}".utf8)
        #expect(body.count <= 16 << 20)
        let started = ContinuousClock.now
        let e = Self.new(body, limits: .standard).failure
        #expect(e == .invalidData(list: "users list", detail: "items[0] has the wrong type (expected an object, found number)"))
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func entrantsOnePastTheLimitStopTheRead() {
        let limits = EntrantListLimits(maxEntrants: 3, maxNameCharacters: 10, maxNameBytes: 40, maxBodyBytes: 1000)
        let users = (1...5).map { Self.user($0) }.joined(separator: ",")
        // Repeats and unknown ids do not count; the 4th entrant stops the read before the garbage.
        let lottery = [1, 1, 9, 2, 3, 2].map { #"{"userId":\#($0),"void":false}"# }.joined(separator: ",")
        #expect(Self.error(#"{"users":[\#(users)],"usersInLottery":[\#(lottery)]}"#, limits: limits) == nil)
        #expect(Self.error(#"{"users":[\#(users)],"usersInLottery":[\#(lottery),{"userId":4,"void":false},!!"#, limits: limits)
                == .tooManyEntrants(limit: 3))
        // The lottery list first: counted after the merge, as before.
        #expect(Self.error(#"{"usersInLottery":[\#(lottery),{"userId":4,"void":false}],"users":[\#(users)]}"#, limits: limits)
                == .tooManyEntrants(limit: 3))
    }

    @Test func namesOnePastTheLimitsStopTheRead() {
        let chars = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 3, maxNameBytes: 40, maxBodyBytes: 1000)
        let bytes = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 4, maxBodyBytes: 1000)
        func body(_ name: String, _ username: String, tail: String = "]}") -> String {
            #"{"users":[\#(Self.user(1, "Ann", "ann")),\#(Self.user(2, name, username)),\#(Self.user(3, "Very long name"))],"usersInLottery":[{"userId":1,"void":false},{"userId":2,"void":false}\#(tail)"#
        }
        #expect(Self.error(body("Zoë", "zoë"), limits: chars) == nil)  // at the limit; user 3 is not in the draw
        #expect(Self.error(body("Zoë!", "z", tail: ",!"), limits: chars) == .nameTooLong(at: .userName(userId: 2), limitCharacters: 3))
        #expect(Self.error(body("Z", "zoë!", tail: ",!"), limits: chars) == .nameTooLong(at: .username(userId: 2), limitCharacters: 3))
        #expect(Self.error(body("Zoë", "zoë"), limits: bytes) == nil)  // 4 bytes each
        #expect(Self.error(body("Zoëy", "z", tail: ",!"), limits: bytes) == .nameTooManyBytes(at: .userName(userId: 2), limitBytes: 4))
        #expect(Self.error(body("Z", "zoëy", tail: ",!"), limits: bytes) == .nameTooManyBytes(at: .username(userId: 2), limitBytes: 4))
    }

    @Test func aHundredThousandEntrantsWithinTheStandardLimits() throws {
        let users = (1...100_000).map { Self.user($0, "Entrant \($0)", "user\($0)") }.joined(separator: ",")
        let lottery = (1...100_000).map { #"{"userId":\#($0),"void":\#($0 % 97 == 0)}"# }.joined(separator: ",")
        let body = Array(#"{"users":{"items":[\#(users)]},"usersInLottery":{"lotteryList":[\#(lottery)]}}"#.utf8)
        let r = try Self.new(body, limits: .standard).get()
        #expect(r.players.count == 100_000 && r.players.last?.name == "Entrant 100000")
        let one = Array(#"{"users":[\#(users),\#(Self.user(100_001))],"usersInLottery":[\#(lottery),{"userId":100001,"void":false}]}"#.utf8)
        #expect(Self.new(one, limits: .standard).failure == .tooManyEntrants(limit: 100_000))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}

/// A small seeded generator (xorshift64), so a failing random list can be made again.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}

/// Random valid uploads: both shapes of each member, either member order, repeated and unknown
/// ids, names with escapes and every UTF-8 length, fields the reader skips, and white space.
enum RandomUpload {
    static let pieces = ["Ann", "Zoë", "李", "🎲", " ", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\u00e9"#,
                         #"\ud83c\udfb2"#, #"\u0000"#, "O'Neil", "-", "a"]
    static let space = ["", " ", "\n", "\t", "\r\n "]

    static func make(_ rng: inout SeededRandom) -> String {
        let ws = { (rng: inout SeededRandom) in space.randomElement(using: &rng)! }
        func name(_ rng: inout SeededRandom) -> String {
            (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
        func extra(_ rng: inout SeededRandom) -> String {
            [#""x":{"y":[1,2.5e3,null,true,"z"]}"#, #""note":"\u00e9\n""#, #""n":-0.5"#, #""a":[]"#].randomElement(using: &rng)!
        }
        let ids = (0..<Int.random(in: 0...12, using: &rng)).map { _ in Int.random(in: 1...15, using: &rng) }
        let users = ids.map { id -> String in
            var fields = [#""userId":\#(id)"#, #""name":"\#(name(&rng))""#, #""username":"\#(name(&rng))""#,
                          #""regDate":"20\#(Int.random(in: 10...29, using: &rng))-0\#(Int.random(in: 1...9, using: &rng))-1\#(Int.random(in: 0...9, using: &rng))""#]
            if Bool.random(using: &rng) { fields.append(extra(&rng)) }
            fields.shuffle(using: &rng)
            return "{" + fields.map { ws(&rng) + $0 + ws(&rng) }.joined(separator: ",") + "}"
        }
        let entries = (0..<Int.random(in: 0...12, using: &rng)).map { _ -> String in
            var fields = [#""userId":\#(Int.random(in: 1...18, using: &rng))"#, #""void":\#(Bool.random(using: &rng))"#]
            if Bool.random(using: &rng) { fields.append(extra(&rng)) }
            fields.shuffle(using: &rng)
            return "{" + fields.joined(separator: "," + ws(&rng)) + "}"
        }
        func member(_ key: String, _ document: String, _ items: [String], _ rng: inout SeededRandom) -> String {
            let array = "[" + items.map { ws(&rng) + $0 }.joined(separator: ",") + ws(&rng) + "]"
            return #""\#(key)":"# + ws(&rng) + (Bool.random(using: &rng) ? array : #"{"\#(document)":\#(array)}"#)
        }
        var members = [member("users", "items", users, &rng), member("usersInLottery", "lotteryList", entries, &rng)]
        if Bool.random(using: &rng) { members.append(extra(&rng)) }
        members.shuffle(using: &rng)
        return ws(&rng) + "{" + members.joined(separator: "," + ws(&rng)) + "}" + ws(&rng)
    }
}
