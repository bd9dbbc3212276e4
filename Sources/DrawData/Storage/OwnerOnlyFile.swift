import Foundation

/// Reading a file of secret bytes that only its owner may read (no group or other permission
/// bits, as ssh insists for its keys): the lobby key file and the cluster's secret file. `fstat`
/// on the open descriptor, so the file checked is the file read; at most `maxBytes + 1` bytes are
/// read, so the caller can tell a file that is too long without reading it whole.
enum OwnerOnlyFile {
    enum Failure: Error {
        case missing
        case unreadable(reason: String)
        /// `mode` in octal, e.g. "644".
        case exposed(mode: String)
    }

    static func read(_ path: String, maxBytes: Int) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .missing }
            throw .unreadable(reason: reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(reason: reason(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .unreadable(reason: "not a regular file") }
        guard info.st_mode & 0o077 == 0 else { throw .exposed(mode: String(info.st_mode & 0o7777, radix: 8)) }
        var buffer = [UInt8](repeating: 0, count: maxBytes + 1)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(reason: reason(errno))
            }
            if n == 0 { break }
            count += n
        }
        return Array(buffer[..<count])
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
