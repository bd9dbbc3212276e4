import DrawCore
import Testing

/// The MAC of cluster envelopes (issue 27, finding 5): what a receiver opens is exactly what was
/// sealed with the same secret for the same room, and nothing else.
struct EnvelopeSealTests {
    private let secret = Array("0123456789abcdef0123456789abcdef".utf8)
    private let message = Array("{\"v\":1,\"node\":\"node-1\",\"kind\":\"deleted\"}\n{\"type\":\"error\"}".utf8)

    @Test func opensWhatItSealed() throws {
        let seal = try #require(EnvelopeSeal(secret: secret))
        let sealed = seal.seal(message, room: "lobby")
        #expect(sealed.count == message.count + EnvelopeSeal.tagBytes)
        #expect(sealed.prefix(message.count).elementsEqual(message))
        #expect(seal.open(sealed, room: "lobby") == message)
        #expect(seal.open(seal.seal([], room: "lobby"), room: "lobby") == [])
    }

    @Test func aSecretShorterThan32BytesIsRefused() {
        #expect(EnvelopeSeal(secret: Array(secret.prefix(31))) == nil)
        #expect(EnvelopeSeal(secret: []) == nil)
    }

    @Test func anyTamperedByteIsRefused() throws {
        let seal = try #require(EnvelopeSeal(secret: secret))
        let sealed = seal.seal(message, room: "lobby")
        for i in sealed.indices {
            var tampered = sealed
            tampered[i] ^= 0x01
            #expect(seal.open(tampered, room: "lobby") == nil, "byte \(i)")
        }
    }

    @Test func anotherSecretOrRoomIsRefused() throws {
        let seal = try #require(EnvelopeSeal(secret: secret))
        var other = secret
        other[0] ^= 0x01
        let sealed = try #require(EnvelopeSeal(secret: other)).seal(message, room: "lobby")
        #expect(seal.open(sealed, room: "lobby") == nil)
        // Replayed on another room's channel.
        #expect(seal.open(seal.seal(message, room: "lobby"), room: "lobby2") == nil)
    }

    @Test func aMissingOrCutTagIsRefused() throws {
        let seal = try #require(EnvelopeSeal(secret: secret))
        let sealed = seal.seal(message, room: "lobby")
        #expect(seal.open(message, room: "lobby") == nil)
        #expect(seal.open(Array(sealed.dropLast()), room: "lobby") == nil)
        #expect(seal.open(Array(sealed.dropFirst()), room: "lobby") == nil)
        #expect(seal.open(Array(sealed.prefix(EnvelopeSeal.tagBytes - 1)), room: "lobby") == nil)
        #expect(seal.open([], room: "lobby") == nil)
        // A trailer of the right length on a message that lost its end.
        #expect(seal.open(Array(message.dropLast(5)) + sealed.suffix(EnvelopeSeal.tagBytes), room: "lobby") == nil)
    }
}
