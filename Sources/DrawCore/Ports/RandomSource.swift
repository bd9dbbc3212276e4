/// Where seeds, draw ids and host keys get their randomness.
///
/// Production uses the operating system's secure generator; tests inject fixed bytes so that a
/// plan can be checked against a known answer.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}
