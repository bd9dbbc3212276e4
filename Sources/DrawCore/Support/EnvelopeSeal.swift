import Crypto

/// The MAC that makes a cluster event speak for a node (issue 27, finding 5; docs/SCALING.md,
/// "Security notes"): with a shared secret, every message a node publishes on a room's channel
/// carries HMAC-SHA256 over the room's name and the message's exact bytes, and a receiver drops
/// what does not carry the right one. Without the secret, anyone who can publish to Redis could
/// show viewers any round, or close them with a forged `deleted`.
///
/// Sealed form: the message's bytes, then the 32-byte tag (a trailer, so the message itself is
/// unchanged and the tag covers every byte of it). The room is in the MAC but not in the
/// message: it is the channel the message came on, so an envelope of one room published on
/// another's channel is dropped too. It does not stop replays of a message sealed before (see
/// docs/SCALING.md). Pure and `Sendable`: the publishing worker and the subscriber's thread
/// both use it.
public struct EnvelopeSeal: Sendable {
    /// Bytes of the tag at the end of a sealed message.
    public static let tagBytes = SHA256.byteCount
    /// The least secret accepted: 256 bits, as much as the MAC's hash gives.
    public static let minimumSecretBytes = 32
    /// Keeps these MACs apart from any other use of the same secret.
    static let context = Array("live-draw cluster envelope 1\n".utf8)

    private let key: SymmetricKey
    /// The seal of what nodes keep in Redis, from the same secret (its own keys, by HKDF).
    public let stored: StoredSeal

    /// `nil` when `secret` is shorter than `minimumSecretBytes`.
    public init?(secret: [UInt8]) {
        guard secret.count >= Self.minimumSecretBytes, let stored = StoredSeal(secret: secret) else { return nil }
        key = SymmetricKey(data: secret)
        self.stored = stored
    }

    /// `message` with its tag appended, for publishing on `room`'s channel.
    public func seal(_ message: [UInt8], room: String) -> [UInt8] {
        message + tag(message[...], room: room)
    }

    /// The message inside `sealed`, or `nil` when its tag is missing or wrong (a tampered byte,
    /// another secret, another room, a cut message). The tag is compared in constant time.
    public func open(_ sealed: [UInt8], room: String) -> [UInt8]? {
        guard sealed.count >= Self.tagBytes else { return nil }
        let message = sealed[..<(sealed.count - Self.tagBytes)]
        let expected = tag(message, room: room)
        guard ConstantTime.equals(expected, sealed[(sealed.count - Self.tagBytes)...]) else { return nil }
        return Array(message)
    }

    /// HMAC-SHA256 over the context, the room's name (its length first, so no two rooms and
    /// messages give the same input) and the message.
    private func tag(_ message: ArraySlice<UInt8>, room: String) -> [UInt8] {
        var mac = HMAC<SHA256>(key: key)
        let name = Array(room.utf8)
        let length = UInt32(truncatingIfNeeded: name.count)
        mac.update(data: Self.context)
        mac.update(data: [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)])
        mac.update(data: name)
        mac.update(data: message)
        return Array(mac.finalize())
    }
}
