import DrawCore
import DrawTransport
import Foundation

/// Where uploaded entrant lists wait for their parse (issue 31, finding 2): at most `running`
/// parses at once, each on a thread of its own; up to `waiting` more in arrival order; any more
/// refused at once (`full`). A parse that has not started, or has not come back, by its
/// deadline is given up (`late`): its caller then changes nothing, so the host is told "no"
/// before anything is kept, never after.
///
/// Service thread only, except the parses themselves. Why threads of their own, not Swift's
/// cooperative pool (`Task.detached`, before): the pool has as many threads as cores (two here),
/// and a parse holds its thread for its whole run, so two parses took the pool from every task
/// the server has (player loading, list fetches) for as long as they ran; and a test's parse
/// that waits for its test to let it go would wait on a pool thread, which is how a previous
/// test deadlocked. At most `running` such threads exist at once, each as long as its parse.
final class UploadParseQueue {
    /// The queue's bounds; `standard` in the server.
    struct Limits {
        /// Parses at once: each takes a core and up to about its body's size again in memory
        /// while it runs, so two (the cores of a small host).
        var running: Int
        /// Parses waiting for one of those; one more is refused at once.
        var waiting: Int
        /// How long an upload may take from its arrival to its parse's end (waiting included).
        /// Well under `HTTPAnswers.answerTimeoutSeconds`; a 16 MiB list parses in about a second.
        var workNanos: UInt64

        static let standard = Limits(running: 2, waiting: 8, workNanos: 20_000_000_000)
    }

    /// Why a parse did not run, or did not count.
    enum Refusal: Error, Equatable {
        /// `running` parses run and `waiting` wait already.
        case full
        /// Its deadline passed while it waited, or before it came back; its work (if it ran) is
        /// thrown away.
        case late
    }

    /// Runs a parse's work off the service thread: `onThread` in the server. Tests pass one that
    /// keeps the work until they run it.
    typealias Start = (@escaping @Sendable () -> Void) -> Void

    let limits: Limits
    private let clock: any DrawClock
    private let executor: ServiceExecutor
    private let start: Start
    /// Parses running now, and the ones waiting (each starts its parse, or gives up when late).
    private(set) var runningCount = 0
    private var queued = FIFO<() -> Void>()

    var waitingCount: Int { queued.count }

    init(limits: Limits = .standard, clock: any DrawClock, executor: ServiceExecutor, start: @escaping Start = UploadParseQueue.onThread) {
        self.limits = limits
        self.clock = clock
        self.executor = executor
        self.start = start
    }

    /// The deadline of an upload arriving now.
    func deadline() -> UInt64 { clock.monotonicNanos() &+ limits.workNanos }

    /// Runs `work` once a parse may start, off the service thread, then `done` with its result
    /// on the service thread; or `done` with why not: `full` at once, `late` when `deadline`
    /// (`deadline()` when the upload arrived) passes first.
    func submit<Output: Sendable>(by deadline: UInt64, _ work: @escaping @Sendable () -> Output,
                                  then done: @escaping (Result<Output, Refusal>) -> Void) {
        let back = executor.continuation { [unowned self] (output: Output) in
            runningCount -= 1
            startWaiting()
            done(clock.monotonicNanos() <= deadline ? .success(output) : .failure(.late))
        }
        let begin = { [unowned self] in
            guard clock.monotonicNanos() <= deadline else { return done(.failure(.late)) }
            runningCount += 1
            start {
                let output = work()
                // What the parse freed goes back to the system before its list is stored: the
                // store's copy of a large list would otherwise come on top of the parse's leftovers.
                FreeMemory.release()
                back(output)
            }
        }
        if runningCount < limits.running { return begin() }
        guard queued.count < limits.waiting else { return done(.failure(.full)) }
        queued.push(begin)
    }

    /// A parse finished: the next waiting ones start (or give up, when they waited too long).
    private func startWaiting() {
        while runningCount < limits.running, let next = queued.pop() { next() }
    }

    /// Runs `work` on a new thread of its own, named for `ps` and debuggers.
    static func onThread(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread {
            // Named from inside: on Linux a name set before `start()` is not given to the thread.
            Thread.current.name = "live-draw parse"
            work()
        }
    }
}
