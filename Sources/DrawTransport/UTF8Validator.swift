/// Incremental UTF-8 validation (RFC 3629), for text messages that arrive in pieces.
///
/// RFC 6455 says a text message that is not valid UTF-8 fails the connection (1007), and a
/// message split into fragments (or across reads) can split a character anywhere, so the state
/// between pieces is the number of continuation bytes still due and the range the next one must
/// fall in (which is how overlong forms, surrogates and code points past U+10FFFF are refused).
/// Three bytes: it lives in every connection's `FrameReader`.
package struct UTF8Validator {
    /// Continuation bytes still due for the current character.
    private var pending: UInt8 = 0
    /// Allowed range of the next continuation byte (narrower right after E0, ED, F0, F4).
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    /// Whether the text so far ends on a character boundary.
    package var isComplete: Bool { pending == 0 }

    package mutating func reset() { self = UTF8Validator() }

    /// Feeds the next bytes; false as soon as they cannot be UTF-8 (the state is then
    /// meaningless until `reset`).
    package mutating func feed<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        for byte in bytes {
            if pending > 0 {
                guard byte >= low, byte <= high else { return false }
                pending -= 1
                low = 0x80
                high = 0xBF
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: pending = 1
            case 0xE0: pending = 2; low = 0xA0           // no overlong 3-byte forms
            case 0xE1...0xEC, 0xEE...0xEF: pending = 2
            case 0xED: pending = 2; high = 0x9F          // no UTF-16 surrogates
            case 0xF0: pending = 3; low = 0x90           // no overlong 4-byte forms
            case 0xF1...0xF3: pending = 3
            case 0xF4: pending = 3; high = 0x8F          // nothing past U+10FFFF
            default: return false                        // 80-C1, F5-FF never start a character
            }
        }
        return true
    }

    /// Whether `bytes` on their own are complete, valid UTF-8.
    package static func isValid<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        var v = UTF8Validator()
        return v.feed(bytes) && v.isComplete
    }
}
