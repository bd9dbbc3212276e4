import DrawCore
import Foundation
import Testing

/// The seal of what nodes keep in Redis (issue 36, finding 8): a value opens only under the key
/// and field it was sealed for, with the same secret, unchanged; the escrow's seed is encrypted.
struct StoredSealTests {
    private let secret = Array("0123456789abcdef0123456789abcdef".utf8)
    private let record = Array(#"{"id":"d1","winners":[{"name":"Ada"}],"verified":true}"#.utf8)
    private let key = "live-draw:draw:d1"

    /// Collects what the seal refuses (any thread).
    final class Refused: @unchecked Sendable {
        private let lock = NSLock()
        private var kinds: [StoredSeal.Kind] = []
        var all: [StoredSeal.Kind] { lock.withLock { kinds } }
        func add(_ kind: StoredSeal.Kind) { lock.withLock { kinds.append(kind) } }
    }

    @Test func opensWhatItSealed() throws {
        let seal = try #require(StoredSeal(secret: secret))
        let sealed = seal.seal(record, key: key)
        #expect(sealed.count == record.count + StoredSeal.tagBytes)
        #expect(sealed.prefix(record.count).elementsEqual(record))
        #expect(seal.open(sealed, key: key, kind: .record) == record)
        #expect(seal.open(seal.seal([], key: key, field: "f"), key: key, field: "f", kind: .view) == [])
        // Deterministic, so a script can still compare a sealed value with one kept before.
        #expect(seal.seal(record, key: key) == sealed)
    }

    @Test func aTamperedValueIsRefusedAndReported() throws {
        let refused = Refused()
        let seal = try #require(StoredSeal(secret: secret)).reporting { kind, _ in refused.add(kind) }
        let sealed = seal.seal(record, key: key)
        for i in sealed.indices {
            var tampered = sealed
            tampered[i] ^= 0x01
            #expect(seal.open(tampered, key: key, kind: .record) == nil, "byte \(i)")
        }
        // A forged winner in the stored format, without a tag, and one cut short.
        var forged = record
        forged.replaceSubrange(forged.firstRange(of: Array("Ada".utf8))!, with: Array("Eve".utf8))
        #expect(seal.open(forged, key: key, kind: .record) == nil)
        #expect(seal.open(forged + sealed.suffix(StoredSeal.tagBytes), key: key, kind: .record) == nil)
        #expect(seal.open(Array(sealed.prefix(10)), key: key, kind: .record) == nil)
        #expect(refused.all.count == sealed.count + 3 && refused.all.allSatisfy { $0 == .record })
    }

    @Test func aValueMovedToAnotherKeyOrFieldIsRefused() throws {
        let seal = try #require(StoredSeal(secret: secret))
        let line = seal.seal(record, key: "live-draw:history-lines:quiz", field: "d1")
        #expect(seal.open(line, key: "live-draw:history-lines:quiz", field: "d1", kind: .historyLine) == record)
        #expect(seal.open(line, key: "live-draw:history-lines:quiz", field: "d2", kind: .historyLine) == nil)
        #expect(seal.open(line, key: "live-draw:history-lines:other", field: "d1", kind: .historyLine) == nil)
        #expect(seal.open(seal.seal(record, key: key), key: "live-draw:draw:d2", kind: .record) == nil)
        // The lengths are bound too: moving a byte between key and field changes the MAC.
        #expect(seal.open(seal.seal(record, key: "ab", field: "c"), key: "a", field: "bc", kind: .view) == nil)
    }

    @Test func anotherSecretIsRefused() throws {
        var other = secret
        other[0] ^= 0x01
        let seal = try #require(StoredSeal(secret: secret))
        let theirs = try #require(StoredSeal(secret: other))
        #expect(seal.open(theirs.seal(record, key: key), key: key, kind: .record) == nil)
        let seed = Array(String(repeating: "ab", count: 32).utf8)
        #expect(seal.decrypt(theirs.encrypt(seed, key: key, field: "seed"), key: key, field: "seed", kind: .escrow) == nil)
        #expect(StoredSeal(secret: Array(secret.prefix(31))) == nil)
    }

    @Test func theEscrowedSeedIsNotInClear() throws {
        let seal = try #require(StoredSeal(secret: secret))
        let seedHex = String(repeating: "5e", count: 32)
        let escrow = "live-draw:escrow:quiz"
        let box = seal.encrypt(Array(seedHex.utf8), key: escrow, field: "seed\nd1")
        #expect(box.firstRange(of: Array(seedHex.utf8)) == nil)
        #expect(box.firstRange(of: Array(seedHex.prefix(8).utf8)) == nil)
        #expect(seal.decrypt(box, key: escrow, field: "seed\nd1", kind: .escrow) == Array(seedHex.utf8))
        // Another draw's or room's escrow, or a changed byte, does not open.
        #expect(seal.decrypt(box, key: escrow, field: "seed\nd2", kind: .escrow) == nil)
        #expect(seal.decrypt(box, key: "live-draw:escrow:other", field: "seed\nd1", kind: .escrow) == nil)
        var altered = box
        altered[altered.count / 2] ^= 0x80
        #expect(seal.decrypt(altered, key: escrow, field: "seed\nd1", kind: .escrow) == nil)
        #expect(seal.decrypt(Array(seedHex.utf8), key: escrow, field: "seed\nd1", kind: .escrow) == nil)
        // A fresh nonce each time: two deposits of one seed do not match.
        #expect(seal.encrypt(Array(seedHex.utf8), key: escrow, field: "seed\nd1") != box)
    }

    @Test func plainKeepsValuesAsTheyAre() {
        let plain = StoredSeal.plain
        #expect(!plain.seals)
        #expect(plain.seal(record, key: key) == record)
        #expect(plain.open(record, key: key, kind: .record) == record)
        #expect(plain.encrypt(record, key: key, field: "seed") == record)
        #expect(plain.decrypt(record, key: key, field: "seed", kind: .escrow) == record)
    }

    @Test func theEnvelopeSecretGivesTheSameStoredSeal() throws {
        let fromEnvelope = try #require(EnvelopeSeal(secret: secret)).stored
        let direct = try #require(StoredSeal(secret: secret))
        #expect(direct.open(fromEnvelope.seal(record, key: key), key: key, kind: .record) == record)
        // Apart from the envelopes' MAC: a sealed envelope is no sealed stored value.
        let envelope = try #require(EnvelopeSeal(secret: secret)).seal(record, room: key)
        #expect(direct.open(envelope, key: key, kind: .record) == nil)
    }
}
