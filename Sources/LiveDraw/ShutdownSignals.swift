import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM as a graceful stop: blocked in every thread, taken by one `sigwait` thread.
///
/// Why not a signal handler: a handler may call only async-signal-safe functions, and `stop()`
/// takes a lock. Why not a dispatch signal source: libdispatch on Linux re-raises the signal on
/// whichever thread caught it and reads it back through a signalfd; with the TLS build of the
/// server that hand-off was seen to lose SIGINT and let SIGTERM kill the process (exit 143).
/// Blocking the signals before any thread exists (every later thread inherits the mask) and
/// waiting for them synchronously has no such hand-off.
///
/// The first signal drains (no new draws, running ones finish within the grace period: a rolling
/// restart spoils no draw); the second stops gracefully now (draws still running are aborted with
/// their seed revealed, clients get close frames); a third exits at once, for an operator who
/// will not wait.
enum ShutdownSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread. Call it first thing in `main`, before
    /// anything starts a thread, so that no thread ever has them unblocked.
    static func blockBeforeAnyThreadStarts() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that waits for the signals: `drain` on the first, `stop` on the second.
    static func watch(logger: Logger, drain: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void) {
        let thread = Thread {
            var set = signals()
            var received = 0
            while true {
                var signal: Int32 = 0
                guard sigwait(&set, &signal) == 0 else { continue }
                received += 1
                let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                switch received {
                case 1:
                    logger.notice("\(name): draining, then shutting down (send it again to abort running draws)")
                    drain()
                case 2:
                    logger.notice("\(name) again: shutting down now, aborting running draws (send it again to exit at once)")
                    stop()
                default:
                    logger.warning("\(name) again: exiting without waiting")
                    exit(128 + signal)
                }
            }
        }
        thread.name = "live-draw.signals"
        thread.start()
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
