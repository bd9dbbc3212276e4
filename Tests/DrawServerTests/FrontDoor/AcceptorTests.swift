@testable import DrawServer
import Glibc
import Testing

/// What the acceptor decides without a socket: what a failed accept means, and how often a pause
/// is worth a warning.
@Suite struct AcceptorTests {
    static let s: UInt64 = 1_000_000_000

    @Test func outOfDescriptorsPausesWhileOneLostConnectionIsSkipped() {
        #expect(Acceptor.Failure(errno: EAGAIN) == .drained)
        for e in [EINTR, ECONNABORTED, EPROTO, EPERM] { #expect(Acceptor.Failure(errno: e) == .skip) }
        for e in [EMFILE, ENFILE, ENOBUFS, ENOMEM] { #expect(Acceptor.Failure(errno: e) == .pause) }
    }

    @Test func pausesAreWarnedAboutAtMostOnceATenSecondsWithHowManyThereWere() {
        var pauses = Acceptor.Pauses()
        let first = pauses.paused(at: 0)
        #expect(first == 1)
        for t in 1...4 {
            let quiet = pauses.paused(at: UInt64(t) * Self.s)
            #expect(quiet == nil)
        }
        let next = pauses.paused(at: 10 * Self.s)
        #expect(next == 5) // the four quiet ones and this one
        let quietAgain = pauses.paused(at: 11 * Self.s)
        #expect(quietAgain == nil)
    }
}
