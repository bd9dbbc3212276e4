import DrawCore

/// Reads a host's JSON entrant lists in one pass over the body (`JSONByteReader`), building only
/// the users and lottery entries it keeps, then merges them as the operator's lists are
/// (`PlayerMerger`: same rules, same warnings) within the upload's `EntrantListLimits`.
///
/// Why by hand (issue 31): the shapes are few and fixed, and reading them as they come means a
/// wrong element is refused where it stands (`{"users":[1,1,…]}` at its first `1`), a broken limit
/// stops the read there, and memory is the lists kept, not a document tree and its copies.
///
/// The errors are the ones the decoder-based path gave (codes, lists named, field paths such as
/// `items[2].username is missing`); the differences, all on bodies that are wrong anyway:
/// - a body with several faults is refused for the first one in body order (the old path parsed
///   everything first, so a syntax error anywhere came before any shape error);
/// - strict JSON: a trailing comma or a second `"users"` / `"usersInLottery"` member is refused
///   (`JSONSerialization` took the first and let the later member win), as is any encoding but
///   UTF-8; a syntax error names the byte where it is.
enum EntrantListJSONReader {
    /// How the upload's two members are named in errors.
    static let users = Member(key: "users", document: "items", list: UploadedJSONLists.usersList)
    static let lottery = Member(key: "usersInLottery", document: "lotteryList", list: UploadedJSONLists.lotteryList)

    /// One of the upload's two lists: its member in the body, its array's name in the seed's
    /// document, and the list's name in errors.
    struct Member {
        let key: String
        let document: String
        let list: String
    }

    /// The upload: `{"users":…,"usersInLottery":…}`, each the seed's document or just its array.
    /// The body's size is the caller's to check.
    ///
    /// The body is consumed: it is let go of once read, before the merge (issue 31: the body, the
    /// users read from it and the merged players were all held at once, 5.3x the body).
    static func readUpload(_ body: consuming [UInt8], limits: EntrantListLimits, name: String) throws(EntrantListError) -> MergeResult {
        var lists = Lists(limits: limits)
        try withReader(body, list: name, whole: true) { reader throws in
            guard try reader.peekKind() == .object else {
                throw EntrantListError.invalidData(list: name, detail: #"the body must be an object {"users":[…],"usersInLottery":[…]}"#)
            }
            try reader.enterObject()
            var first = true
            var key: [UInt8] = []
            while try reader.nextMember(&first, key: &key) {
                if key.elementsEqual(users.key.utf8) {
                    try lists.readUsers(&reader, asMemberOf: name)
                } else if key.elementsEqual(lottery.key.utf8) {
                    try lists.readLottery(&reader, asMemberOf: name)
                } else {
                    try reader.skipValue()
                }
            }
            try reader.expectEnd()
        }
        _ = consume body
        for member in [users, lottery] where !lists.has(member) {
            throw .invalidData(list: name, detail: "\"\(member.key)\" must be an array, or an object with \"\(member.document)\"")
        }
        return try lists.merge()
    }

    /// The seed's two documents, each a body of its own (`{"items":[…]}`, `{"lotteryList":[…]}`).
    static func readDocuments(users usersBody: [UInt8], lottery lotteryBody: [UInt8],
                              limits: EntrantListLimits) throws(EntrantListError) -> MergeResult {
        var lists = Lists(limits: limits)
        try withReader(usersBody, list: users.list, whole: false) { reader throws in
            try lists.readUsers(&reader, asMemberOf: nil)
            try reader.expectEnd()
        }
        try withReader(lotteryBody, list: lottery.list, whole: false) { reader throws in
            try lists.readLottery(&reader, asMemberOf: nil)
            try reader.expectEnd()
        }
        return try lists.merge()
    }

    /// Runs `read` over `body`, turning a syntax error into `malformedJSON` naming `list`; `whole`
    /// when `body` is the upload's one object (its detail then says so first, as it always did).
    ///
    /// The readers throw untyped inside (a syntax error or an `EntrantListError`), which costs a
    /// box only on the way out of a refused body.
    private static func withReader(_ body: [UInt8], list: String, whole: Bool,
                                   _ read: (inout JSONByteReader) throws -> Void) throws(EntrantListError) {
        do {
            try body.withUnsafeBufferPointer { buffer in
                var reader = JSONByteReader(buffer)
                try read(&reader)
            }
        } catch let error as JSONByteReader.SyntaxError {
            throw .malformedJSON(list: list, detail: whole ? "the body must be one JSON object (\(error.detail))" : error.detail)
        } catch let error as EntrantListError {
            throw error
        } catch {
            preconditionFailure("the readers throw only syntax and entrant-list errors")
        }
    }
}

/// The users and entries read so far, and the limits checked as entrants come in.
private struct Lists {
    let limits: EntrantListLimits
    var users: [User]?
    var entries: [LotteryEntry]?
    /// Set once the users are read, when the lottery list comes after them (the documented order):
    /// the index of each id's first user (the one the merge keeps) and the ids entered so far, so
    /// that the entrant count and names are checked as each entrant is read, and the read stops at
    /// the first one past a limit. Without it (lottery first) they are checked after the merge.
    private var firstUser: [Int: Int]?
    private var entered = Set<Int>()

    init(limits: EntrantListLimits) { self.limits = limits }

    func has(_ member: EntrantListJSONReader.Member) -> Bool {
        member.key == EntrantListJSONReader.users.key ? users != nil : entries != nil
    }

    /// Reads the users member (or document, when `memberOf` is `nil`) at the cursor.
    mutating func readUsers(_ reader: inout JSONByteReader, asMemberOf memberOf: String?) throws {
        guard users == nil else { throw twice(EntrantListJSONReader.users, memberOf) }
        var read: [User] = []
        try Self.readList(&reader, EntrantListJSONReader.users, asMemberOf: memberOf) { reader throws in
            read.append(try UserFields.read(&reader))
        }
        users = read
        // Only when the lottery list is still to come: otherwise the merge after it reads both.
        guard entries == nil else { return }
        var first: [Int: Int] = [:]
        first.reserveCapacity(read.count)
        for (index, user) in read.enumerated() where first[user.userId] == nil { first[user.userId] = index }
        firstUser = first
    }

    /// Reads the lottery member (or document) at the cursor.
    mutating func readLottery(_ reader: inout JSONByteReader, asMemberOf memberOf: String?) throws {
        guard entries == nil else { throw twice(EntrantListJSONReader.lottery, memberOf) }
        var read: [LotteryEntry] = []
        // As many new entrants as users at most, checked as they come: sized once, not doubled.
        if let users { entered.reserveCapacity(min(users.count, limits.maxEntrants + 1)) }
        try Self.readList(&reader, EntrantListJSONReader.lottery, asMemberOf: memberOf) { reader throws in
            let entry = try EntryFields.read(&reader)
            try check(entry)
            read.append(entry)
        }
        entries = read
    }

    /// The merge of both lists, with every limit checked (again, when they were checked as read).
    /// Consuming: the checks' tables go before the merge builds its own.
    consuming func merge() throws(EntrantListError) -> MergeResult {
        firstUser = nil
        entered = []
        let merged: MergeResult
        do {
            merged = try PlayerMerger.merge(users: users ?? [], entries: entries ?? [])
        } catch {
            throw .noEntrants(warnings: error.warnings)
        }
        try limits.check(entrantCount: merged.players.count)
        for p in merged.players { try limits.check(namesOf: p) }
        return merged
    }

    /// The limits, for an entry read after all the users: the count when it is a new entrant (a
    /// known user not entered yet; the merge's rules), and its user's names.
    private mutating func check(_ entry: LotteryEntry) throws(EntrantListError) {
        guard let firstUser, let users, let index = firstUser[entry.userId],
              entered.insert(entry.userId).inserted else { return }
        try limits.check(entrantCount: entered.count)
        try limits.check(namesOf: Player(user: users[index], entry: entry))
    }

    private func twice(_ member: EntrantListJSONReader.Member, _ memberOf: String?) -> EntrantListError {
        .invalidData(list: memberOf ?? member.list, detail: "\"\(member.key)\" is given twice")
    }

    /// A list member: the seed's document (an object whose `document` member is the array; other
    /// members are skipped) or, inside the upload, just the array. `element` reads one element object
    /// at the cursor; a `FieldFault` it throws is reported at the element's path (`items[3].name`).
    private static func readList(_ reader: inout JSONByteReader, _ member: EntrantListJSONReader.Member,
                                 asMemberOf memberOf: String?,
                                 element: (inout JSONByteReader) throws -> Void) throws {
        let kind = try reader.peekKind()
        if let memberOf, kind != .object {
            guard kind == .array else {
                throw EntrantListError.invalidData(
                    list: memberOf, detail: "\"\(member.key)\" must be an array, or an object with \"\(member.document)\"")
            }
            return try readArray(&reader, member, element: element)
        }
        guard kind == .object else { throw shape(member, .wrongType(kind, expected: "an object"), "the top-level value") }
        try reader.enterObject()
        var first = true
        var key: [UInt8] = []
        var found = false
        while try reader.nextMember(&first, key: &key) {
            guard key.elementsEqual(member.document.utf8) else { try reader.skipValue(); continue }
            let kind = try reader.peekKind()
            guard kind == .array else {
                throw shape(member, kind == .null ? .null : .wrongType(kind, expected: "an array"), member.document)
            }
            try readArray(&reader, member, element: element)
            found = true
        }
        guard found else { throw shape(member, .missing, member.document) }
    }

    private static func readArray(_ reader: inout JSONByteReader, _ member: EntrantListJSONReader.Member,
                                  element: (inout JSONByteReader) throws -> Void) throws {
        try reader.enterArray()
        var first = true
        var index = 0
        while try reader.nextElement(&first) {
            // The path is only spelled out for an error: most elements never need it.
            var path: String { "\(member.document)[\(index)]" }
            let kind = try reader.peekKind()
            guard kind == .object else {
                throw shape(member, kind == .null ? .null : .wrongType(kind, expected: "an object"), path)
            }
            do {
                try element(&reader)
            } catch let fault as FieldFault {
                throw shape(member, fault.problem, "\(path).\(fault.field)")
            }
            index += 1
        }
    }

    private static func shape(_ member: EntrantListJSONReader.Member, _ problem: FieldFault.Problem,
                              _ path: String) -> EntrantListError {
        .invalidData(list: member.list, detail: "\(path) \(problem.sentence)")
    }
}

/// A field of an element that is missing or of the wrong type: what `DecodingError+FieldDetail`
/// would say about it.
private struct FieldFault: Error {
    enum Problem {
        case missing, null, notWholeNumber
        case wrongType(JSONByteReader.Kind, expected: String)
        case notADay(String)

        /// The end of the sentence after the field's path, as the decoder-based path said it.
        var sentence: String {
            switch self {
            case .missing: return "is missing"
            case .null: return "is null"
            case .notWholeNumber: return "is not a whole number within the integer range"
            case .wrongType(let kind, let expected):
                return "has the wrong type (expected \(expected), found \(kind.foundDescription))"
            case .notADay(let text): return UserListMapper.notADay(text)
            }
        }
    }

    let field: String
    let problem: Problem
}

/// A value read for a field the element wants.
private enum FieldValue {
    case missing
    case string(String)
    case number(Int?)
    case bool(Bool)
    /// `null`, an object or an array (the last two are skipped).
    case other(JSONByteReader.Kind)

    /// Reads the value at the cursor.
    static func read(_ reader: inout JSONByteReader, scratch: inout [UInt8]) throws -> FieldValue {
        let kind = try reader.peekKind()
        switch kind {
        case .string:
            scratch.removeAll(keepingCapacity: true)
            try reader.readString(into: &scratch)
            return .string(String(decoding: scratch, as: UTF8.self))
        case .number:
            return .number(try reader.readNumber())
        case .bool, .null:
            return try reader.readLiteral().map(FieldValue.bool) ?? .other(.null)
        case .object, .array:
            try reader.skipValue()
            return .other(kind)
        }
    }

    var kind: JSONByteReader.Kind {
        switch self {
        case .missing: return .null
        case .string: return .string
        case .number: return .number
        case .bool: return .bool
        case .other(let kind): return kind
        }
    }

    /// As `JSONInteger`: a whole number within `Int`.
    func integer(_ field: String) throws(FieldFault) -> Int {
        switch self {
        case .number(let value?): return value
        case .number(nil): throw FieldFault(field: field, problem: .notWholeNumber)
        default: throw fault(field, expected: "a whole number")
        }
    }

    func string(_ field: String) throws(FieldFault) -> String {
        if case .string(let s) = self { return s }
        throw fault(field, expected: "a string")
    }

    func bool(_ field: String) throws(FieldFault) -> Bool {
        if case .bool(let b) = self { return b }
        // The decoder reports a null where a Bool goes as a type mismatch, not as "is null".
        if case .other(.null) = self { throw FieldFault(field: field, problem: .wrongType(.null, expected: "true or false")) }
        throw fault(field, expected: "true or false")
    }

    private func fault(_ field: String, expected: String) -> FieldFault {
        switch self {
        case .missing: return FieldFault(field: field, problem: .missing)
        case .other(.null): return FieldFault(field: field, problem: .null)
        default: return FieldFault(field: field, problem: .wrongType(kind, expected: expected))
        }
    }
}

/// Reads the members of the element object at the cursor whose keys are in `fields` (the last one
/// of a repeated key wins, as in the decoder); every other member is skipped.
private func readFields(_ reader: inout JSONByteReader, _ fields: [String]) throws -> [FieldValue] {
    var values = [FieldValue](repeating: .missing, count: fields.count)
    var key: [UInt8] = []
    var scratch: [UInt8] = []
    try reader.enterObject()
    var first = true
    while try reader.nextMember(&first, key: &key) {
        if let i = fields.firstIndex(where: { key.elementsEqual($0.utf8) }) {
            values[i] = try FieldValue.read(&reader, scratch: &scratch)
        } else {
            try reader.skipValue()
        }
    }
    return values
}

/// One element of `items`, checked field by field in the order the decoder checked them.
private enum UserFields {
    static let names = ["userId", "name", "username", "regDate"]

    static func read(_ reader: inout JSONByteReader) throws -> User {
        let v = try readFields(&reader, names)
        let userId = try v[0].integer(names[0])
        let name = try v[1].string(names[1])
        let username = try v[2].string(names[2])
        let regDate = try v[3].string(names[3])
        guard let day = CalendarDate(iso: regDate) else { throw FieldFault(field: names[3], problem: .notADay(regDate)) }
        return User(userId: userId, name: name, username: username, regDate: day)
    }
}

/// One element of `lotteryList`.
private enum EntryFields {
    static let names = ["userId", "void"]

    static func read(_ reader: inout JSONByteReader) throws -> LotteryEntry {
        let v = try readFields(&reader, names)
        return LotteryEntry(userId: try v[0].integer(names[0]), isVoid: try v[1].bool(names[1]))
    }
}

extension EntrantListLimits {
    /// A player's name and username against the name limits, as every JSON list is checked.
    func check(namesOf p: Player) throws(EntrantListError) {
        try check(name: p.name, at: .userName(userId: p.userId))
        try check(name: p.username, at: .username(userId: p.userId))
    }
}
