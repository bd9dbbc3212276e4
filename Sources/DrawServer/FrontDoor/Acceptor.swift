import DrawCore
import DrawTransport
import Glibc
import Logging

/// The front door's listening socket: accepts a bounded batch per readiness wake and hands each
/// connection to `accepted`; out of descriptors (or kernel memory) it stops watching the socket
/// for `pauseNanos` instead of failing the same accept again and again (issue 11: lws spun on
/// EMFILE in its own accept loop). Pending connections wait in the kernel's backlog meanwhile.
///
/// Threading: service thread only, like its `FrontDoor`, including its timer.
final class Acceptor {
    /// Accepts per readiness wake: the rest wait in the backlog for the next turn, so a storm
    /// does not hold up lws' own connections.
    static let batch = 64
    static let pauseNanos: UInt64 = 100_000_000

    /// What a failed `accept` means for the accept loop.
    enum Failure: Equatable {
        /// Nothing more to accept now.
        case drained
        /// This connection only (it went, or was refused): go on with the next.
        case skip
        /// Out of something that frees up later (EMFILE, ENFILE, ENOBUFS, ENOMEM): pause.
        case pause

        init(errno: Int32) {
            switch errno {
            case EAGAIN, EWOULDBLOCK: self = .drained
            case EINTR, ECONNABORTED, EPROTO, EPERM: self = .skip
            default: self = .pause
            }
        }
    }

    /// How often accepting paused, for a warning at most once per `logEveryNanos`.
    struct Pauses: Equatable {
        static let logEveryNanos: UInt64 = 10_000_000_000
        private var count = 0
        private var lastLog: UInt64?

        /// One more pause at `now`: how many to report in a warning now (this one included, and
        /// those since the last warning), or nil to stay quiet.
        mutating func paused(at now: UInt64) -> Int? {
            count += 1
            if let lastLog, now &- lastLog < Self.logEveryNanos { return nil }
            lastLog = now
            defer { count = 0 }
            return count
        }
    }

    let listener: ListenSocket
    private let readiness: Readiness
    private let clock: any DrawClock
    private let logger: Logger
    private var resumeTimer: LoopTimer?
    private var pauses = Pauses()
    /// Whether the listening socket is in the readiness set.
    private(set) var listening = false
    private var closed = false
    private var accepted: (Int32, PeerAddress?) -> Void = { fd, _ in Glibc.close(fd) }
    /// Connections open now, for the warning.
    private var openCount: () -> Int = { 0 }

    init(listener: ListenSocket, readiness: Readiness, loop: ServiceLoop, clock: any DrawClock, logger: Logger) {
        self.listener = listener
        self.readiness = readiness
        self.clock = clock
        self.logger = logger
        resumeTimer = loop.timer { [unowned self] in self.resume() }
    }

    /// Starts accepting: each connection goes to `accepted`, its descriptor with it. False when
    /// the listening socket cannot be watched.
    func start(openCount: @escaping () -> Int, accepted: @escaping (Int32, PeerAddress?) -> Void) -> Bool {
        self.openCount = openCount
        self.accepted = accepted
        listening = readiness.watch(listener.fd, for: .readable) { [unowned self] _ in self.acceptReady() }
        return listening
    }

    /// Stops for good and closes the listening socket.
    func close() {
        guard !closed else { return }
        closed = true
        if listening { readiness.unwatch(listener.fd) }
        listening = false
        listener.close()
        resumeTimer = nil
    }

    private func acceptReady() {
        for _ in 0..<Self.batch {
            var storage = sockaddr_storage()
            let fd = listener.accept(peer: &storage)
            if fd < 0 {
                let error = errno
                switch Failure(errno: error) {
                case .drained: return
                case .skip: continue
                case .pause: return pause(error)
                }
            }
            accepted(fd, PeerAddress(storage))
        }
    }

    /// Logged at most once per 10 s, with how often it happened.
    private func pause(_ error: Int32) {
        if listening { readiness.unwatch(listener.fd) }
        listening = false
        resumeTimer?.schedule(afterNanos: Self.pauseNanos)
        guard let count = pauses.paused(at: clock.monotonicNanos()) else { return }
        logger.warning("cannot accept connections: \(String(cString: strerror(error))); pausing accept for 100 ms",
                       metadata: ["pauses": "\(count)", "open": "\(openCount())"])
    }

    private func resume() {
        guard !closed, !listening else { return }
        listening = readiness.watch(listener.fd, for: .readable) { [unowned self] _ in self.acceptReady() }
        if !listening { resumeTimer?.schedule(afterNanos: Self.pauseNanos) }
    }
}
