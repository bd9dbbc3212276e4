import Foundation

/// A one-shot gate for async code: `wait()` suspends until `open()` is called (at once if it
/// already was). Lets a test hold a server's player loading for exactly as long as it needs,
/// without sleeping.
final class AsyncGate: @unchecked Sendable {
    private let lock = NSLock()
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isOpen {
                lock.unlock()
                c.resume()
            } else {
                waiters.append(c)
                lock.unlock()
            }
        }
    }

    func open() {
        lock.lock()
        isOpen = true
        let ready = waiters
        waiters.removeAll()
        lock.unlock()
        for c in ready { c.resume() }
    }
}
