#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that wakes a thread blocked in `poll`: other threads `signal`, the owner polls
/// `readFD` and `drain`s it. Both ends are non-blocking, so a signal never blocks (a full pipe
/// already means a wake-up is pending) and a drain never waits.
final class WakePipe {
    /// Why no pipe could be made (`EMFILE`: the process is out of file descriptors).
    struct Failure: Error, Sendable, CustomStringConvertible {
        let errno: Int32
        var description: String { "cannot create the subscriber's wake pipe: \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    let readFD: Int32
    private let writeFD: Int32

    /// Makes the pipe. `makePipe` is `pipe(2)` (tests pass a failing one); a failure is thrown,
    /// not trapped: running out of descriptors is a state the subscriber waits out and reports.
    init(makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { pipe($0) }) throws(Failure) {
        var fds: [Int32] = [-1, -1]
        guard makePipe(&fds) == 0 else { throw Failure(errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the owner (any thread).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe (owner only).
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
