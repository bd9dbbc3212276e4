/// A strict (RFC 8259), single-pass cursor over the bytes of one JSON text, for readers that know
/// the shape they expect and build their own values as they go (`EntrantListJSONReader`).
///
/// Why not `JSONSerialization` or `JSONDecoder`: both build the whole document first (an `Any`
/// tree, or the decoder's own), which for an upload of 16 MiB cost about 1 GB and tens of seconds
/// (issue 31), and only then say that the first element was of the wrong type. This reader holds
/// nothing but its position: the caller asks for the next token and decides at once whether it
/// fits, so a bad element is refused where it is and memory is what the caller keeps.
///
/// Strict means: no trailing commas, no comments, no leading zeros, no bare control characters in
/// strings, every escape valid (surrogates only in high-low pairs), strings valid UTF-8, nesting at
/// most `maxDepth` deep, and nothing but white space after the value.
struct JSONByteReader {
    /// Deepest nesting of arrays and objects. The upload's own shape is 4 deep; the rest is room for
    /// fields a reader skips, and the bound keeps `skipValue`'s recursion small.
    static let maxDepth = 64

    /// Where and how the text stops being JSON.
    struct SyntaxError: Error, Equatable {
        /// What is wrong, e.g. "unterminated string".
        let what: String
        /// The offset of the byte where it was found.
        let offset: Int

        /// `unterminated string at byte 14`.
        var detail: String { "\(what) at byte \(offset)" }
    }

    /// What the next value is, from its first byte.
    enum Kind {
        case object, array, string, number, bool, null

        /// How `JSONDecoder` names what it found instead (`DecodingError+FieldDetail`), so a shape
        /// error reads as it did when the upload went through the decoder.
        var foundDescription: String {
            switch self {
            case .object: return "a dictionary"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "number"
            case .bool: return "bool"
            case .null: return "null"
            }
        }
    }

    /// A number token: its value when it is a whole number within `Int` (`1`, `-0`, `1.0`, `1e2`,
    /// as `JSONDecoder` takes them), else `nil`.
    typealias WholeNumber = Int?

    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0
    private var depth = 0

    /// Starts at the first byte; a UTF-8 byte-order mark there is skipped (RFC 8259 §8.1 lets a
    /// parser ignore it, and `JSONSerialization` did).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { offset = 3 }
    }

    // MARK: Tokens

    /// The kind of the next value, after white space; throws at the end of the text or at a byte
    /// no value starts with.
    mutating func peekKind() throws(SyntaxError) -> Kind {
        skipWhiteSpace()
        guard offset < bytes.count else { throw fail("unexpected end of the text") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw fail("unexpected byte 0x\(String(bytes[offset], radix: 16))")
        }
    }

    /// Enters the object at the cursor (`peekKind() == .object`). Then call `nextMember` until it
    /// returns `false`, reading or skipping each value.
    mutating func enterObject() throws(SyntaxError) {
        try enter()
    }

    /// Enters the array at the cursor (`peekKind() == .array`). Then call `nextElement` until it
    /// returns `false`, reading or skipping each value.
    mutating func enterArray() throws(SyntaxError) {
        try enter()
    }

    /// Reads the next member's key into `key` (replacing it) and its colon, leaving the cursor at
    /// the value; `false`, past the `}`, when the object ends. `first` is the caller's, `true`
    /// before the first call.
    mutating func nextMember(_ first: inout Bool, key: inout [UInt8]) throws(SyntaxError) -> Bool {
        guard try nextItem(&first, closing: UInt8(ascii: "}")) else { return false }
        skipWhiteSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
        key.removeAll(keepingCapacity: true)
        try readString(into: &key)
        skipWhiteSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        offset += 1
        return true
    }

    /// Leaves the cursor at the next element; `false`, past the `]`, when the array ends. `first`
    /// is the caller's, `true` before the first call.
    mutating func nextElement(_ first: inout Bool) throws(SyntaxError) -> Bool {
        try nextItem(&first, closing: UInt8(ascii: "]"))
    }

    /// Appends the string at the cursor, unescaped, to `out` as UTF-8 (checked: invalid UTF-8 and
    /// lone surrogates are syntax errors).
    mutating func readString(into out: inout [UInt8]) throws(SyntaxError) {
        offset += 1  // the opening quote
        while true {
            // A run of plain ASCII is copied at once: names are mostly that.
            let start = offset
            while offset < bytes.count {
                let b = bytes[offset]
                guard b >= 0x20, b < 0x80, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") else { break }
                offset += 1
            }
            if offset > start { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset])) }
            guard offset < bytes.count else { throw fail("unterminated string") }
            let b = bytes[offset]
            switch b {
            case UInt8(ascii: "\""):
                offset += 1
                return
            case UInt8(ascii: "\\"):
                try readEscape(into: &out)
            case ..<0x20:
                throw fail("unescaped control character in a string")
            default:
                let n = try utf8SequenceLength()
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<offset + n]))
                offset += n
            }
        }
    }

    /// Reads the number at the cursor (`peekKind() == .number`), checking its grammar.
    mutating func readNumber() throws(SyntaxError) -> WholeNumber {
        let start = offset
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") { negative = true; offset += 1 }
        // The integer part, accumulated (negatively, so Int.min fits) while it stays in range.
        var value = 0
        var fits = true
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("expected a digit") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) {
                let digit = Int(bytes[offset] &- UInt8(ascii: "0"))
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(digit)
                if o1 || o2 { fits = false } else { value = next }
                offset += 1
            }
        }
        var plain = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            plain = false
            offset += 1
            try digits()
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            plain = false
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            try digits()
        }
        if plain {
            guard fits else { return nil }
            if negative { return value }
            return value == Int.min ? nil : -value
        }
        // `1.0` and `1e2` are whole numbers to `JSONDecoder` too; they are rare, so the exact
        // check goes through Double (whose parse of the checked grammar cannot fail).
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let double = Double(text), double.isFinite, double == double.rounded() else { return nil }
        return Int(exactly: double)
    }

    /// Reads `true`, `false` or `null` at the cursor: the Bool, or `nil` for `null`.
    mutating func readLiteral() throws(SyntaxError) -> Bool? {
        let word: StaticString, value: Bool?
        switch bytes[offset] {
        case UInt8(ascii: "t"): (word, value) = ("true", true)
        case UInt8(ascii: "f"): (word, value) = ("false", false)
        default: (word, value) = ("null", nil)
        }
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - offset >= text.count,
              UnsafeBufferPointer(rebasing: bytes[offset..<offset + text.count]).elementsEqual(text)
        else { throw fail("invalid literal") }
        offset += text.count
        return value
    }

    /// Checks and steps over the value at the cursor, whatever it is: a member no one asked for.
    mutating func skipValue() throws(SyntaxError) {
        var scratch: [UInt8] = []
        try skipValue(scratch: &scratch)
    }

    /// Throws unless only white space is left.
    mutating func expectEnd() throws(SyntaxError) {
        skipWhiteSpace()
        guard offset == bytes.count else { throw fail("unexpected text after the JSON value") }
    }

    // MARK: Helpers

    private mutating func skipValue(scratch: inout [UInt8]) throws(SyntaxError) {
        switch try peekKind() {
        case .object:
            try enter()
            var first = true
            while try nextMember(&first, key: &scratch) { try skipValue(scratch: &scratch) }
        case .array:
            try enter()
            var first = true
            while try nextElement(&first) { try skipValue(scratch: &scratch) }
        case .string:
            scratch.removeAll(keepingCapacity: true)
            try readString(into: &scratch)
        case .number:
            _ = try readNumber()
        case .bool, .null:
            _ = try readLiteral()
        }
    }

    private mutating func enter() throws(SyntaxError) {
        guard depth < Self.maxDepth else { throw fail("nested deeper than \(Self.maxDepth) levels") }
        depth += 1
        offset += 1
    }

    /// The separator before an array's element or an object's member, or the closing bracket.
    private mutating func nextItem(_ first: inout Bool, closing: UInt8) throws(SyntaxError) -> Bool {
        skipWhiteSpace()
        guard offset < bytes.count else { throw fail("unexpected end of the text") }
        if bytes[offset] == closing {
            offset += 1
            depth -= 1
            return false
        }
        if first {
            first = false
            return true
        }
        guard bytes[offset] == UInt8(ascii: ",") else {
            throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
        offset += 1
        skipWhiteSpace()
        // `[1,]` is not JSON (JSONSerialization let it through).
        if offset < bytes.count, bytes[offset] == closing { throw fail("expected a value after ','") }
        return true
    }

    private mutating func readEscape(into out: inout [UInt8]) throws(SyntaxError) {
        guard offset + 1 < bytes.count else { throw fail("unterminated string") }
        let simple: UInt8
        switch bytes[offset + 1] {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            let escapeStart = offset
            var scalar = try hex4()
            if (0xDC00...0xDFFF).contains(scalar) {
                throw SyntaxError(what: "a low surrogate without a high one", offset: escapeStart)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
                else { throw SyntaxError(what: "a high surrogate without a low one", offset: escapeStart) }
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw SyntaxError(what: "a high surrogate without a low one", offset: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            // Not a surrogate now, so a valid scalar.
            out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            return
        default:
            throw fail("invalid escape")
        }
        out.append(simple)
        offset += 2
    }

    /// Reads `\uXXXX` at the cursor; its value.
    private mutating func hex4() throws(SyntaxError) -> UInt32 {
        guard bytes.count - offset >= 6 else { throw fail("unterminated \\u escape") }
        var value: UInt32 = 0
        for i in 2..<6 {
            let b = bytes[offset + i]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 6
        return value
    }

    /// The length of the valid UTF-8 sequence at the cursor (a lead byte of 0x80 or more); throws
    /// on overlong forms, surrogates, code points past U+10FFFF and cut sequences.
    private func utf8SequenceLength() throws(SyntaxError) -> Int {
        let lead = bytes[offset]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw fail("invalid UTF-8")
        }
        guard bytes.count - offset >= length, secondRange.contains(bytes[offset + 1]) else { throw fail("invalid UTF-8") }
        for i in 2..<length where bytes[offset + i] & 0xC0 != 0x80 { throw fail("invalid UTF-8") }
        return length
    }

    private mutating func digits() throws(SyntaxError) {
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("expected a digit") }
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }

    private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    private mutating func skipWhiteSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    private func fail(_ what: String) -> SyntaxError { SyntaxError(what: what, offset: offset) }
}
