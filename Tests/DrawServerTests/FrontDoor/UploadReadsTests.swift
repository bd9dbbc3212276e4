@testable import DrawServer
import Testing

/// The uploads whose bodies are being read: slots taken and freed, and paces checked, driven
/// without sockets (byte counts and times are passed in).
@Suite struct UploadReadsTests {
    static let s: UInt64 = 1_000_000_000
    let a = PeerAddress.ipv4((203, 0, 113, 9))
    let b = PeerAddress.ipv4((198, 51, 100, 7))

    @Test func aSlotIsHeldUntilItsOwnRequestEnds() {
        var uploads = UploadReads()
        let first = uploads.admit(5, id: 1, peer: a, room: "r1", bytes: 0, at: 0)
        let sameRoom = uploads.admit(6, id: 2, peer: b, room: "r1", bytes: 0, at: 0)
        #expect(first && !sameRoom) // one per room
        uploads.ended(5, id: 9) // a later connection with the same number frees nothing
        #expect(uploads.count == 1)
        uploads.ended(5, id: 1)
        let afterwards = uploads.admit(6, id: 2, peer: b, room: "r1", bytes: 0, at: 0)
        #expect(afterwards && uploads.count == 1)
    }

    @Test func aBodyBehindItsPaceIsNamedOnceItsWindowCloses() {
        var uploads = UploadReads()
        _ = uploads.admit(5, id: 1, peer: a, room: "r1", bytes: 0, at: 0)
        _ = uploads.admit(6, id: 2, peer: b, room: "r2", bytes: 0, at: 0)
        let window = UploadPace.windowNanos
        let fast = Int(window / Self.s) * UploadPace.minBytesPerSecond
        let open = uploads.offPace(at: window - 1, bytes: { _ in 0 })
        #expect(open.isEmpty)
        let late = uploads.offPace(at: window, bytes: { $0 == 5 ? fast : 10 })
        #expect(late == [6])
        let unknown = uploads.offPace(at: 2 * window, bytes: { _ in nil }) // not read any more: skipped
        #expect(unknown.isEmpty)
    }
}
