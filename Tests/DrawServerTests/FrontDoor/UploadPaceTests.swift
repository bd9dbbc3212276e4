@testable import DrawServer
import Testing

/// An upload body's deadline follows its progress (issue 31, finding 5) and the slots it takes
/// are shared per address and per room (finding 1): pure values, driven by an injected clock.
@Suite struct UploadPaceTests {
    static let s: UInt64 = 1_000_000_000

    @Test func aSlowHonestBodyPastTheOldFiveSecondsGoesOn() {
        // 16 MiB at 128 KiB/s: 128 s, far past the old 5 s deadline for a whole request.
        var pace = UploadPace(bytes: 0, at: 0)
        var bytes = 0
        for second in 1...128 {
            bytes += 128 * 1024
            #expect(pace.check(bytes: bytes, at: UInt64(second) * Self.s) == .onPace, "second \(second)")
        }
    }

    @Test func aTrickleIsCutOffAtTheEndOfItsFirstWindow() {
        var pace = UploadPace(bytes: 1, at: 0)
        var bytes = 1
        var cutAt: UInt64?
        for tick in 1...200 { // a byte every half second, checked every 100 ms
            let now = UInt64(tick) * Self.s / 10
            if tick % 5 == 0 { bytes += 1 }
            if pace.check(bytes: bytes, at: now) != .onPace { cutAt = now; break }
        }
        #expect(cutAt == UploadPace.windowNanos)
    }

    @Test func aWindowIsJudgedOnItsOwnBytesNotTheWholeAverage() {
        // A fast start does not pay for a stall later: each window must bring its own bytes.
        var pace = UploadPace(bytes: 0, at: 0, minBytesPerSecond: 1000, windowNanos: 5 * Self.s, capNanos: 1000 * Self.s)
        #expect(pace.check(bytes: 1_000_000, at: 5 * Self.s) == .onPace)
        #expect(pace.check(bytes: 1_000_100, at: 10 * Self.s) == .tooSlow)
    }

    @Test func noWindowEndsBeforeItsTimeAndTheCapHoldsWhateverTheRate() {
        var pace = UploadPace(bytes: 0, at: 100, minBytesPerSecond: 1000, windowNanos: 5 * Self.s, capNanos: 20 * Self.s)
        #expect(pace.check(bytes: 0, at: 100 + 4 * Self.s) == .onPace) // no bytes yet, window still open
        #expect(pace.check(bytes: 1_000_000, at: 100 + 19 * Self.s) == .onPace)
        #expect(pace.check(bytes: 10_000_000, at: 100 + 20 * Self.s) == .tooLong)
        #expect(pace.check(bytes: 10_000_000, at: 50) == .onPace) // a clock going back never traps
    }

    @Test func theDefaultsLetTheLargestUploadThroughAtTheMinimumRate() {
        let largest = 16 << 20
        #expect(UInt64(largest / UploadPace.minBytesPerSecond) * Self.s < UploadPace.capNanos)
    }

    @Test func slotsAreSharedInAllPerAddressAndPerRoom() {
        let a = PeerAddress.ipv4((203, 0, 113, 9)), b = PeerAddress.ipv4((198, 51, 100, 7))
        let v6a = PeerAddress(text: "2001:db8::1")!, v6b = PeerAddress(text: "2001:db8::ffff:2")!
        let slots = UploadSlots()
        #expect(slots.admits(peer: a, room: "r1", beside: []))
        #expect(!slots.admits(peer: b, room: "r1", beside: [(peer: a, room: "r1")])) // one per room
        #expect(!slots.admits(peer: a, room: "r3", beside: [(peer: a, room: "r1"), (peer: a, room: "r2")])) // two per address
        #expect(slots.admits(peer: b, room: "r3", beside: [(peer: a, room: "r1"), (peer: a, room: "r2")]))
        #expect(!slots.admits(peer: v6b, room: "r3", beside: [(peer: v6a, room: "r1"), (peer: v6a, room: "r2")])) // one /64
        let four: [(peer: PeerAddress?, room: String)] = [(a, "r1"), (a, "r2"), (b, "r3"), (b, "r4")]
        #expect(!slots.admits(peer: PeerAddress.ipv4((192, 0, 2, 1)), room: "r5", beside: four)) // four in all
    }

    @Test func aLaterAnswerWaitsLongerThanTheServersOwnBoundedWork() {
        // Finding 3: lws must never close a connection while the server still works on its answer.
        #expect(UInt64(HTTPAnswers.answerTimeoutSeconds) * Self.s > UploadParseQueue.Limits.standard.workNanos + 10 * Self.s)
    }
}
