import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

/// A node reads a room's stored view one read at a time (`ClusterNode.readView`): every round of
/// a draw whose start the node missed asks for one, and they must not each queue a Redis round
/// trip on the worker. Real worker thread, a view store the test holds, answers through a
/// `FakeLoop`.
@Suite struct ClusterViewReadsTests {
    /// Counts reads; the first waits until the test lets it answer.
    final class HeldViews: RoomViewStore, @unchecked Sendable {
        // `_reads` guarded by `lock`.
        private let lock = NSLock()
        private var _reads = 0
        let firstMayAnswer = DispatchSemaphore(value: 0)
        var reads: Int { lock.withLock { _reads } }
        func view(room: String) throws(CoordinationError) -> StoredRoomView {
            let n = lock.withLock { _reads += 1; return _reads }
            if n == 1 { firstMayAnswer.wait() }
            return StoredRoomView(drawId: "read-\(n)")
        }
    }

    /// Redis away: every read fails.
    struct AwayViews: RoomViewStore {
        func view(room: String) throws(CoordinationError) -> StoredRoomView { throw .unavailable("Redis away") }
    }

    struct NoChannel: ClusterEventChannel {
        func publish(_ payload: [UInt8], toRoom room: String) throws(CoordinationError) -> Int { 0 }
        func subscribe(room: String) {}
        func unsubscribe(room: String) {}
        func start() {}
        func stop() {}
        func isSubscribed(room: String) -> Bool { false }
        func observeSubscriptions(_ observer: @escaping @Sendable (String) -> Void) {}
    }

    static func node(_ loop: FakeLoop, views: any RoomViewStore) -> ClusterNode {
        let services = ClusterServices(nodeId: "node-t", lease: ClusterLeasesTests.ScriptedLease(),
                                       log: ClusterLeasesTests.EmptyLog(), views: views,
                                       makeEvents: { _ in NoChannel() }, linkUp: { true })
        return ClusterNode(services: services, executor: loop.executor, clock: DrawRunnerPacingTests.ManualClock(),
                           logger: Logger(label: "test"), makeTimer: { loop.makeTimer($0) })
    }

    /// Runs the loop's jobs until `done` or 5 s.
    static func run(_ loop: FakeLoop, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !done(), Date() < deadline {
            if loop.runJobs() == 0 { usleep(1_000) }
        }
    }

    @Test func readsWhileOneIsInFlightShareTheNextOne() {
        let loop = FakeLoop(), views = HeldViews()
        let node = Self.node(loop, views: views)
        defer { node.close() }
        var got: [String] = []
        node.readView(room: "quiz") { got.append("a:\($0?.drawId ?? "")") }
        node.readView(room: "quiz") { got.append("b:\($0?.drawId ?? "")") }
        node.readView(room: "quiz") { got.append("c:\($0?.drawId ?? "")") }
        node.readView(room: "other") { got.append("o:\($0?.drawId ?? "")") }
        views.firstMayAnswer.signal()
        Self.run(loop) { got.count >= 4 }
        // The first read answers its caller; the two that asked meanwhile share one read, started
        // after they asked; another room's read is its own.
        #expect(got.sorted() == ["a:read-1", "b:read-3", "c:read-3", "o:read-2"], "\(got)")
        #expect(views.reads == 3)
    }

    /// A read that fails answers every caller, with nothing: one waiting on it (events held until
    /// a missed end is shown, a start) must hear of it, not wait for whatever comes next. So does
    /// a read asked after the worker stopped.
    @Test func aFailedReadAnswersEveryCallerWithNothing() {
        let loop = FakeLoop()
        let node = Self.node(loop, views: AwayViews())
        var got: [String] = []
        for caller in ["a", "b", "c"] { node.readView(room: "quiz") { got.append("\(caller):\($0 == nil ? "none" : "view")") } }
        Self.run(loop) { got.count >= 3 }
        #expect(got.sorted() == ["a:none", "b:none", "c:none"])
        node.close()
        node.readView(room: "quiz") { got.append("after:\($0 == nil ? "none" : "view")") }
        Self.run(loop) { got.count >= 4 }
        #expect(got.last == "after:none")
    }
}
