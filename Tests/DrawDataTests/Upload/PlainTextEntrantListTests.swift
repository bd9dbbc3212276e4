import DrawCore
import DrawData
import Testing

/// One name per line: every rule of `PlainTextEntrantList`, and every limit one past its value.
struct PlainTextEntrantListTests {
    static let day = CalendarDate(iso: "2026-11-23")!
    static let roomy = EntrantListLimits(maxEntrants: 1000, maxNameCharacters: 100, maxNameBytes: 400,
                                         maxBodyBytes: 1 << 20)

    static func parse(_ text: String, limits: EntrantListLimits = roomy) throws(EntrantListError) -> MergeResult {
        try PlainTextEntrantList.parse(Array(text.utf8), limits: limits, registeredOn: day)
    }

    static func error(_ bytes: [UInt8], limits: EntrantListLimits = roomy) -> EntrantListError? {
        do {
            _ = try PlainTextEntrantList.parse(bytes, limits: limits, registeredOn: day)
            return nil
        } catch {
            return error
        }
    }

    static func error(_ text: String, limits: EntrantListLimits = roomy) -> EntrantListError? {
        error(Array(text.utf8), limits: limits)
    }

    @Test func idsFollowTheLinesAndNamesLoseSurroundingSpace() throws {
        let r = try Self.parse("  Ann Lee \n\tBen\t\nCleo")
        #expect(r.players == [
            Player(userId: 1, name: "Ann Lee", username: "", regDate: Self.day, isVoid: false),
            Player(userId: 2, name: "Ben", username: "", regDate: Self.day, isVoid: false),
            Player(userId: 3, name: "Cleo", username: "", regDate: Self.day, isVoid: false),
        ])
        #expect(r.warnings.isEmpty)
    }

    @Test func blankLinesAreSkippedAndDoNotTakeAnId() throws {
        let r = try Self.parse("\n\nAnn\n \t \n\u{00A0}\nBen\n\n")
        #expect(r.players.map(\.userId) == [1, 2])
        #expect(r.players.map(\.name) == ["Ann", "Ben"])
    }

    @Test(arguments: ["Ann\r\nBen\r\nCleo\r\n", "Ann\rBen\rCleo", "Ann\nBen\r\nCleo\r", "\u{FEFF}Ann\nBen\nCleo\n"])
    func lineEndingsAndAByteOrderMark(_ text: String) throws {
        #expect(try Self.parse(text).players.map(\.name) == ["Ann", "Ben", "Cleo"])
    }

    @Test func spaceInsideANameIsKept() throws {
        #expect(try Self.parse("Ann  Marie   Lee").players.map(\.name) == ["Ann  Marie   Lee"])
    }

    @Test func duplicatesAreEnteredAndWarnedAboutOncePerName() throws {
        let r = try Self.parse("Ann\nBen\nAnn\nann\nAnn\nBen\n")
        #expect(r.players.map(\.userId) == [1, 2, 3, 4, 5, 6])
        #expect(r.warnings == [.duplicateName(userId: 3, firstUserId: 1), .duplicateName(userId: 6, firstUserId: 2)])
        #expect(r.warnings[0].code == "duplicate_name" && r.warnings[0].userId == 3)
        #expect(r.warnings[0].message == "Entrant 3 has the same name as entrant 1; both are entered.")
    }

    @Test func canonicallyEquivalentNamesAreDuplicates() throws {
        let r = try Self.parse("Zo\u{00EB}\nZo\u{0065}\u{0308}")  // ë precomposed, then e + combining diaeresis
        #expect(r.warnings == [.duplicateName(userId: 2, firstUserId: 1)])
    }

    @Test(arguments: ["", "\n", " \r\n\t\n", "\u{FEFF}"])
    func noNameIsNoEntrants(_ text: String) {
        #expect(Self.error(text) == .noEntrants(warnings: []))
    }

    @Test func invalidUTF8IsRefusedWithItsOffset() {
        #expect(Self.error([0x41, 0x0A, 0xC3, 0x28]) == .notUTF8(byteOffset: 2))       // bad continuation
        #expect(Self.error([0x41, 0xC0, 0xAF]) == .notUTF8(byteOffset: 1))             // overlong "/"
        #expect(Self.error([0x41, 0x42, 0xED, 0xA0, 0x80]) == .notUTF8(byteOffset: 2)) // a surrogate
        #expect(Self.error(Array("Zoë\n".utf8) + [0xE2, 0x82]) == .notUTF8(byteOffset: 5)) // cut short
        #expect(Self.error([0xFF]) == .notUTF8(byteOffset: 0))
    }

    // MARK: Limits, each at its value and one past it

    @Test func bodyBytes() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 40, maxBodyBytes: 8)
        #expect(try Self.parse("Ann\nBen\n", limits: limits).players.count == 2)  // 8 bytes
        let error = Self.error("Ann\nBen\n\n", limits: limits)
        #expect(error == .bodyTooLarge(list: "plain-text list", limitBytes: 8))
        #expect(error?.violatedLimit == EntrantListLimitViolation(name: "maxBodyBytes", value: 8))
        #expect(error?.message == "The plain-text list is larger than 8 bytes, the limit for one list.")
    }

    @Test func entrants() throws {
        let limits = EntrantListLimits(maxEntrants: 3, maxNameCharacters: 10, maxNameBytes: 40, maxBodyBytes: 100)
        #expect(try Self.parse("A\nB\n\n\nC\n\n", limits: limits).players.count == 3)  // blank lines do not count
        let error = Self.error("A\nB\nC\nD", limits: limits)
        #expect(error == .tooManyEntrants(limit: 3))
        #expect(error?.violatedLimit == EntrantListLimitViolation(name: "maxEntrants", value: 3))
        #expect(error?.message == "The list has more than 3 entrants, the limit for one room.")
    }

    @Test func nameCharacters() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 4, maxNameBytes: 100, maxBodyBytes: 100)
        #expect(try Self.parse("  Zoë🎲  \nAnn", limits: limits).players[0].name == "Zoë🎲")  // 4 characters, 8 bytes
        let error = Self.error("Ann\n\nZoë🎲!\n", limits: limits)
        #expect(error == .nameTooLong(at: .line(3), limitCharacters: 4))  // the blank line counts as a line
        #expect(error?.violatedLimit == EntrantListLimitViolation(name: "maxNameCharacters", value: 4))
        #expect(error?.message == "The name on line 3 is longer than 4 characters, the limit for a name.")
    }

    @Test func nameBytes() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 8, maxBodyBytes: 100)
        #expect(try Self.parse("Zoë🎲", limits: limits).players.count == 1)  // 8 bytes
        let error = Self.error("Ann\r\nZoë🎲!", limits: limits)  // 5 characters, 9 bytes
        #expect(error == .nameTooManyBytes(at: .line(2), limitBytes: 8))
        #expect(error?.violatedLimit == EntrantListLimitViolation(name: "maxNameBytes", value: 8))
        #expect(error?.message == "The name on line 2 is longer than 8 bytes of UTF-8, the limit for a name.")
    }

    @Test func everyRefusalHasItsOwnCode() {
        let errors: [EntrantListError] = [
            .bodyTooLarge(list: "x", limitBytes: 1), .notUTF8(byteOffset: 0), .tooManyEntrants(limit: 1),
            .nameTooLong(at: .line(1), limitCharacters: 1), .nameTooManyBytes(at: .line(1), limitBytes: 1),
            .noEntrants(warnings: []), .malformedJSON(list: "x", detail: "d"), .invalidData(list: "x", detail: "d"),
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        #expect(errors.filter { $0.violatedLimit != nil }.count == 4)
    }

    @Test func theStandardLimitsTakeAHundredThousandNames() throws {
        let text = (1...100_000).map { "Entrant number \($0)" }.joined(separator: "\n")
        let r = try PlainTextEntrantList.parse(Array(text.utf8), limits: .standard, registeredOn: Self.day)
        #expect(r.players.count == 100_000 && r.players.last?.userId == 100_000)
        #expect(Self.error(text + "\nOne more", limits: .standard) == .tooManyEntrants(limit: 100_000))
    }

    @Test func repeatedNamesAreWarnedAboutAsATableByNameWould() throws {
        // Repeated names are found by sorting (issue 31: no table keyed by name); the warnings
        // must be those of the table it replaced: one per name, at its first repeat, naming its
        // first entrant, in list order. Canonically equivalent spellings are one name.
        var generator = SystemRandomNumberGenerator()
        let spellings = ["Ann", "ann", "Zo\u{00EB}", "Zo\u{0065}\u{0308}", "Ben", "B\u{00E9}a", "Be\u{0301}a", "Cleo", "Dee"]
        for _ in 0..<20 {
            let names = (0..<300).map { _ in spellings.randomElement(using: &generator)! + String(Int.random(in: 0..<40, using: &generator)) }
            let r = try Self.parse(names.joined(separator: "\n"))
            var first: [String: Int] = [:]
            var warned = Set<String>()
            var expected: [MergeWarning] = []
            for (index, name) in names.enumerated() {
                if let earlier = first[name] {
                    if warned.insert(name).inserted { expected.append(.duplicateName(userId: index + 1, firstUserId: earlier)) }
                } else {
                    first[name] = index + 1
                }
            }
            #expect(r.warnings == expected)
        }
    }
}
