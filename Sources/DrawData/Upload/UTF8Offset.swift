/// Where UTF-8 breaks, so a refused list can say where to look.
enum UTF8Offset {
    /// The offset of the first byte that does not start a valid UTF-8 sequence (overlong forms,
    /// surrogates and code points past U+10FFFF are invalid, as in `String(validating:)`);
    /// `nil` when all of `bytes` is valid.
    static func firstInvalid(in bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
