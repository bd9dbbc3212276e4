import Crypto

/// What makes a value a node reads back from Redis speak for a node (issue 36, finding 8;
/// docs/SCALING.md, "Security notes"): with the cluster's secret, every value a node later
/// trusts (draw records, history lines, the room view's parts, scheduled draws, the escrow)
/// is stored sealed, and one whose seal is missing or wrong is refused, never served. Without
/// it `EnvelopeSeal` only covers the channel, and whoever can write Redis could make every
/// node serve a forged winner as verified.
///
/// Sealed form: the value, then a 32-byte HMAC-SHA256 tag over the key's name, a field and the
/// value (a trailer, as `EnvelopeSeal`'s, so a Lua script can still compare sealed values byte
/// for byte). The key and field are in the MAC, not the value: a value moved to another key,
/// another field or (where the field names it) another draw is refused. The escrow's seed is
/// encrypted instead (ChaCha20-Poly1305, the key and field as associated data), so Redis never
/// holds it in clear. Both keys come from the secret by HKDF, apart from the envelopes' MAC key.
/// Replays of a value once sealed under the same key and field are not stopped (docs).
///
/// `plain` (no secret) stores values as they are and accepts what it reads, as before. Pure and
/// `Sendable`: the Redis adapters call it from the rooms thread and the cluster worker.
public struct StoredSeal: Sendable {
    /// Which kind of value was refused, for the log and the metric.
    public enum Kind: String, Sendable, CaseIterable {
        case record, historyLine = "history_line", view, schedule, escrow
    }

    /// Told of every refused value (any thread): its kind and its key.
    public typealias Refusal = @Sendable (_ kind: Kind, _ key: String) -> Void

    /// Bytes of the tag at the end of a sealed value.
    public static let tagBytes = SHA256.byteCount
    static let macInfo = Array("live-draw stored value mac 1".utf8)
    static let cipherInfo = Array("live-draw stored value cipher 1".utf8)

    private let keys: (mac: SymmetricKey, cipher: SymmetricKey)?
    private let refused: Refusal

    /// Values stored and read as they are: a cluster without a secret.
    public static let plain = StoredSeal(keys: nil, refused: { _, _ in })

    private init(keys: (mac: SymmetricKey, cipher: SymmetricKey)?, refused: @escaping Refusal) {
        self.keys = keys
        self.refused = refused
    }

    /// `nil` when `secret` is shorter than `EnvelopeSeal.minimumSecretBytes`.
    public init?(secret: [UInt8]) {
        guard secret.count >= EnvelopeSeal.minimumSecretBytes else { return nil }
        let material = SymmetricKey(data: secret)
        func derive(_ info: [UInt8]) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: material, info: info, outputByteCount: 32)
        }
        self.init(keys: (derive(Self.macInfo), derive(Self.cipherInfo)), refused: { _, _ in })
    }

    /// Whether values are sealed (a secret was given).
    public var seals: Bool { keys != nil }

    /// This seal, telling `refused` of every value it refuses.
    public func reporting(_ refused: @escaping Refusal) -> StoredSeal {
        StoredSeal(keys: keys, refused: refused)
    }

    /// `value` with its tag, to store under `key` (and `field`, of a hash or list).
    public func seal(_ value: [UInt8], key: String, field: String = "") -> [UInt8] {
        guard let keys else { return value }
        return value + tag(value[...], key: key, field: field, with: keys.mac)
    }

    /// The value inside `stored`, or `nil` (refused and reported as `kind`) when its tag is
    /// missing or wrong: a changed byte, another key or field, another secret. Compared in
    /// constant time.
    public func open(_ stored: [UInt8], key: String, field: String = "", kind: Kind) -> [UInt8]? {
        guard let keys else { return stored }
        guard stored.count >= Self.tagBytes else { return refuse(kind, key) }
        let value = stored[..<(stored.count - Self.tagBytes)]
        let expected = tag(value, key: key, field: field, with: keys.mac)
        guard ConstantTime.equals(expected, stored[(stored.count - Self.tagBytes)...]) else { return refuse(kind, key) }
        return Array(value)
    }

    /// `value` encrypted for `key` and `field` (nonce, ciphertext, tag): for secrets a reader of
    /// Redis must not learn. Plain: `value` itself.
    public func encrypt(_ value: [UInt8], key: String, field: String) -> [UInt8] {
        guard let keys else { return value }
        // A fresh random nonce per value; sealing only fails for a bad nonce, which this is not.
        guard let box = try? ChaChaPoly.seal(value, using: keys.cipher, authenticating: Self.bound(key, field)) else {
            preconditionFailure("ChaChaPoly refused its own nonce")
        }
        return Array(box.combined)
    }

    /// The value `encrypt` made for `key` and `field`, or `nil` (refused and reported) when it
    /// does not open: altered, another key or field, another secret, not a box at all.
    public func decrypt(_ stored: [UInt8], key: String, field: String, kind: Kind) -> [UInt8]? {
        guard let keys else { return stored }
        guard let box = try? ChaChaPoly.SealedBox(combined: stored),
              let value = try? ChaChaPoly.open(box, using: keys.cipher, authenticating: Self.bound(key, field)) else {
            return refuse(kind, key)
        }
        return Array(value)
    }

    private func refuse(_ kind: Kind, _ key: String) -> [UInt8]? {
        refused(kind, key)
        return nil
    }

    /// HMAC-SHA256 over the key, the field (each with its length first, so no two pairs give
    /// the same input) and the value.
    private func tag(_ value: ArraySlice<UInt8>, key: String, field: String, with mac: SymmetricKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: mac)
        hmac.update(data: Self.bound(key, field))
        hmac.update(data: value)
        return Array(hmac.finalize())
    }

    /// The key and field, each length-prefixed (4 bytes, big-endian).
    static func bound(_ key: String, _ field: String) -> [UInt8] {
        var out: [UInt8] = []
        for part in [Array(key.utf8), Array(field.utf8)] {
            let n = UInt32(truncatingIfNeeded: part.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff)]
            out += part
        }
        return out
    }
}
