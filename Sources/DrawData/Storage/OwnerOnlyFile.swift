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

    /// The file's one line: read as `read` does, refused when longer than `maxBytes`, without a
    /// final line break (`\n` or `\r\n`). Each failure is the caller's own error (`E`), naming
    /// `path`: what the lobby key file and the cluster's secret file share.
    static func line<E: OwnerOnlyFileError>(_ path: String, maxBytes: Int, as _: E.Type) throws(E) -> ArraySlice<UInt8> {
        let bytes: [UInt8]
        do throws(Failure) { bytes = try read(path, maxBytes: maxBytes) } catch {
            switch error {
            case .missing: throw .missing(path: path)
            case .unreadable(let reason): throw .unreadable(path: path, reason: reason)
            case .exposed(let mode): throw .exposed(path: path, mode: mode)
            }
        }
        guard bytes.count <= maxBytes else { throw .malformed(path: path, detail: "it is longer than \(maxBytes) bytes") }
        var line = bytes[...]
        if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// The errors of a file `OwnerOnlyFile.line` reads, each naming the file (its enum's cases).
protocol OwnerOnlyFileError: Error {
    static func missing(path: String) -> Self
    static func unreadable(path: String, reason: String) -> Self
    static func exposed(path: String, mode: String) -> Self
    static func malformed(path: String, detail: String) -> Self
}
