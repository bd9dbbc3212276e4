import Foundation

/// Checks, in debug builds, that state meant for one thread is touched only on that thread, so a
/// wrong hop fails a test instead of corrupting state. Release builds compile the checks away.
///
/// Before `claim()` any thread passes: objects are built on one thread (the server's `init`) and
/// handed to the thread that runs them, which claims them first thing.
///
/// `public` with `package` members so that its `@inlinable` calls inline (see `Connection`).
public final class ThreadOwner: @unchecked Sendable {
    @usableFromInline package let name: String
    #if DEBUG
    @usableFromInline let lock = NSLock()
    @usableFromInline var owner: pthread_t? // guarded by lock
    #endif

    package init(name: String) { self.name = name }

    /// Makes the calling thread the owner.
    package func claim() {
        #if DEBUG
        lock.withLock { owner = pthread_self() }
        #endif
    }

    /// Traps in debug builds when called off the owning thread (once one has claimed it).
    @inlinable @inline(__always)
    package func check(_ function: StaticString = #function, file: StaticString = #fileID, line: UInt = #line) {
        #if DEBUG
        let current = pthread_self()
        let ok = lock.withLock { owner.map { pthread_equal($0, current) != 0 } ?? true }
        precondition(ok, "\(function) must run on the \(name) thread", file: file, line: line)
        #endif
    }
}
