/// Comparison of secrets whose duration does not depend on where the inputs differ.
public enum ConstantTime {
    /// Compares two byte strings in time that depends only on their lengths.
    ///
    /// Why: an early-exit `==` on a host key lets an attacker learn the key byte by byte from
    /// response times. The length itself is not secret (keys have a fixed, documented length).
    public static func equals<A: Collection, B: Collection>(_ a: A, _ b: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        var diff: UInt8 = a.count == b.count ? 0 : 1
        // Walk the longer input in full so the work does not depend on which input is shorter.
        let aa = Array(a), bb = Array(b)
        let n = max(aa.count, bb.count)
        for i in 0..<n {
            let x = i < aa.count ? aa[i] : 0
            let y = i < bb.count ? bb[i] : 0
            diff |= x ^ y
        }
        return diff == 0
    }

    /// String form of `equals(_:_:)`, comparing UTF-8 bytes.
    public static func equals(_ a: String, _ b: String) -> Bool {
        equals(Array(a.utf8), Array(b.utf8))
    }
}
