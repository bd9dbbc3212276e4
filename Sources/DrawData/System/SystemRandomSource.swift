import DrawCore

/// Core's `RandomSource` over the operating system's secure generator.
///
/// `SystemRandomNumberGenerator` is the OS CSPRNG (`getrandom` on Linux, `arc4random_buf` on
/// Apple platforms): fit for seeds and host keys, unlike a seeded PRNG.
public struct SystemRandomSource: RandomSource {
    public init() {}

    /// `count` fresh random bytes (an empty array for `count <= 0`).
    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var generator = SystemRandomNumberGenerator()
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { buffer in
            var offset = 0
            // Eight bytes per call: one getrandom word instead of eight.
            while offset < count {
                var word = generator.next()
                let n = min(8, count - offset)
                withUnsafeBytes(of: &word) { wordBytes in
                    buffer.baseAddress!.advanced(by: offset).copyMemory(from: wordBytes.baseAddress!, byteCount: n)
                }
                offset += n
            }
        }
        return out
    }
}
