import Dispatch
import Foundation
import Logging

/// SIGINT and SIGTERM as a graceful stop, through dispatch sources.
///
/// Why dispatch sources and not `signal()` handlers: a handler may call only async-signal-safe
/// functions, and `stop()` takes a lock. Dispatch turns the signal into an ordinary block on a
/// queue, where calling into the server is safe. The first signal asks for a graceful stop
/// (draws are aborted with their seed revealed, clients get close frames); a second one exits at
/// once, for an operator who does not want to wait for the grace period.
final class ShutdownSignals {
    private let sources: [DispatchSourceSignal]

    init(logger: Logger, stop: @escaping @Sendable () -> Void) {
        // Serial, so handlers run one at a time and `received` needs no further guarding.
        let queue = DispatchQueue(label: "live-draw.signals")
        let received = SignalCount()
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            // The default action would end the process before the source ever saw the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                received.value += 1
                if received.value == 1 {
                    logger.notice("\(name): shutting down (send it again to exit at once)")
                    stop()
                } else {
                    logger.warning("\(name) again: exiting without waiting")
                    exit(130)
                }
            }
            source.resume()
            return source
        }
    }

    /// Stops listening; the signals stay ignored until the process exits.
    func cancel() {
        sources.forEach { $0.cancel() }
    }
}

/// Signals seen so far; touched only on the serial signal queue.
private final class SignalCount: @unchecked Sendable {
    var value = 0
}
