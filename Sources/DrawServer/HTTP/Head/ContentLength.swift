/// `Content-Length` as a peer sends it, read without trusting it.
///
/// Peer-supplied number: parsed digit by digit with overflow-reporting arithmetic, so no value
/// can trap or wrap (a Swift overflow trap would be a remote crash). Every field line and every
/// element of a comma-separated list must be the same plain decimal number (RFC 9110 §8.6);
/// signs, blanks inside, hex and conflicting copies are refused.
enum ContentLength {
    /// The body length, `nil` when no value was sent.
    static func parse(_ values: [[UInt8]], max: Int) -> Result<Int?, HeadRejection> {
        var length: Int?
        for value in values {
            for element in value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = trimmed(element)
                guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                    return .failure(.malformed("bad Content-Length"))
                }
                guard let n = decimal(digits) else { return .failure(.bodyTooLarge) }
                if let length, length != n { return .failure(.malformed("conflicting Content-Length values")) }
                length = n
            }
        }
        if let length, length > max { return .failure(.bodyTooLarge) }
        return .success(length)
    }

    /// The value of ASCII digits, `nil` when it does not fit in an `Int`.
    static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        var n = 0
        for d in digits {
            let (times10, o1) = n.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(d) - 0x30)
            if o1 || o2 { return nil }
            n = sum
        }
        return n
    }

    private static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var s = s
        while let f = s.first, f == 0x20 || f == 0x09 { s = s.dropFirst() }
        while let l = s.last, l == 0x20 || l == 0x09 { s = s.dropLast() }
        return s
    }
}
