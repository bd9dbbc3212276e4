@testable import DrawServer
import DrawTransport
import Foundation
import Testing

/// `ServiceThreadScheduling` on real threads: the calling thread, and only it, goes under
/// SCHED_FIFO; a thread it starts afterwards runs under the normal policy; a priority outside
/// 1-99 is refused before the kernel is asked.
@Suite struct ServiceThreadSchedulingTests {
    /// Runs `body` on a new thread (never the test's own, which is shared) and waits for it.
    private static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let box = ResultBox<T>()
        let thread = Thread { box.set(body()) }
        thread.start()
        return box.wait(seconds: 10)
    }

    @Test func prioritiesOutsideFifosRangeAreRefusedWithoutAskingTheKernel() {
        for priority in [0, -1, 100, Int.max] {
            #expect(throws: ServerStartError.self) { try ServiceThreadScheduling.makeRealtime(priority: priority) }
        }
        #expect(ThreadScheduling.current()?.isRealtime == false)
    }

    @Test func onlyTheCallingThreadBecomesRealtimeAndWhatItStartsStaysNormal() throws {
        struct Seen: Sendable { var refused: String?; var mine: ThreadScheduling.Current?; var child: ThreadScheduling.Current? }
        let seen = try #require(Self.onNewThread { () -> Seen in
            do {
                try ServiceThreadScheduling.makeRealtime(priority: 7)
            } catch {
                return Seen(refused: "\(error)")
            }
            let child = Self.onNewThread { ThreadScheduling.current() }
            return Seen(mine: ThreadScheduling.current(), child: child ?? nil)
        })
        if let refused = seen.refused {
            // A machine that grants neither a real-time limit nor CAP_SYS_NICE: the refusal must
            // say how to grant either.
            #expect(refused.contains("rtprio=7") && refused.contains("CAP_SYS_NICE") && refused.contains("--realtime-priority"))
            return
        }
        #expect(seen.mine == ThreadScheduling.Current(isRealtime: true, priority: 7, resetsOnFork: true))
        #expect(seen.child == ThreadScheduling.Current(isRealtime: false, priority: 0, resetsOnFork: false))
        // And the test's own thread never changed.
        #expect(ThreadScheduling.current()?.isRealtime == false)
    }
}

/// A value handed from one thread to another.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written once under `lock` before `done` is signalled.
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var value: T?

    func set(_ v: T) {
        lock.withLock { value = v }
        done.signal()
    }

    func wait(seconds: Double) -> T? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { value }
    }
}
