#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe that wakes a thread blocked in `poll`: other threads `signal`, the owner polls
/// `readFD` and `drain`s it. Both ends are non-blocking, so a signal never blocks (a full pipe
/// already means a wake-up is pending) and a drain never waits.
final class WakePipe {
    let readFD: Int32
    private let writeFD: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        // Without a pipe the subscriber cannot be woken or stopped: nothing sensible to go on with.
        precondition(pipe(&fds) == 0, "pipe() failed: errno \(errno)")
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
