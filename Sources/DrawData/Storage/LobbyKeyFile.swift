import DrawCore
import Foundation

/// The lobby's host key, kept in a file so that it, and every host link made from it, survives a
/// restart.
///
/// The file holds the key as text (`HostKey`: 48 lowercase hex characters) and an optional line
/// break, nothing else, so an operator can write one with `openssl rand -hex 24`. It must be
/// readable by its owner only (no group or other permission bits), as ssh insists for its keys:
/// the key starts draws, and a copy readable by every local user is a leak waiting to happen.
///
/// Writing is atomic: the key goes to a temporary file (mode 0600 from its creation, never wider)
/// in the same directory, is synced, and is then linked (creation: never over a key that
/// appeared meanwhile) or renamed (rotation) into place, and the directory is synced. A crash
/// leaves the old key or the new one, never half a key.
///
/// Plain POSIX calls rather than FileManager: the mode must be set at creation, and an
/// operator needs the OS's reason ("Permission denied") when something fails.
public struct LobbyKeyFile: Sendable, Hashable {
    /// The file's name inside a data directory.
    public static let fileName = "lobby.key"
    /// More than this is not a key file (and is not read whole).
    static let maxBytes = 256

    /// Where the key is kept.
    public let path: String

    /// A key file at an explicit path (`--lobby-key-file`).
    public init(path: String) {
        self.path = path
    }

    /// `<dataDirectory>/lobby.key`, beside the draw database.
    public init(dataDirectory: String) {
        let dir = dataDirectory.hasSuffix("/") ? String(dataDirectory.dropLast()) : dataDirectory
        path = (dir.isEmpty ? "." : dir) + "/" + Self.fileName
    }

    /// What `load` found or did.
    public enum Origin: Sendable, Hashable {
        /// The key was in the file.
        case read
        /// There was no file; a new key was generated and written.
        case created
        /// A new key was generated and replaced the old one (`rotate`).
        case rotated
    }

    /// Reads the key. A missing file is created with a new key when `createIfMissing`, and is
    /// `missing` otherwise; anything else wrong with the file is an error, never a silent new key.
    public func load(createIfMissing: Bool, random: any RandomSource) throws(LobbyKeyFileError) -> (key: String, origin: Origin) {
        do {
            return (try read(), .read)
        } catch .missing where createIfMissing {
            let key = HostKey.generate(using: random)
            if try write(key, replacing: false) {
                return (key, .created)
            }
            // Another process created it between our read and our link: use that one.
            return (try read(), .read)
        }
    }

    /// Writes a new key in place of the old one (or of none) and returns it. Host links with the
    /// old key stop working once a server runs with the new one.
    public func rotate(random: any RandomSource) throws(LobbyKeyFileError) -> String {
        let key = HostKey.generate(using: random)
        _ = try write(key, replacing: true)
        return key
    }

    // MARK: Reading

    /// The key in the file, after checking what the file is, who may read it and what it holds.
    func read() throws(LobbyKeyFileError) -> String {
        try parse(OwnerOnlyFile.line(path, maxBytes: Self.maxBytes, as: LobbyKeyFileError.self))
    }

    /// One key (its final line break already gone). The detail says what is wrong in terms of
    /// length and kind of character, never by quoting the content.
    func parse(_ body: ArraySlice<UInt8>) throws(LobbyKeyFileError) -> String {
        guard !body.isEmpty else { throw .malformed(path: path, detail: "it is empty") }
        let text = String(decoding: body, as: UTF8.self)
        guard HostKey.isWellFormed(text) else {
            let hasUpper = body.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
            let detail = body.contains(UInt8(ascii: "\n")) ? "it has more than one line"
                : hasUpper ? "it has uppercase hex digits"
                : "it has \(body.count) bytes that are not \(HostKey.length) hex characters"
            throw .malformed(path: path, detail: detail)
        }
        return text
    }

    // MARK: Writing

    /// Writes `key` atomically. Returns `false` only when not `replacing` and a file appeared at
    /// `path` meanwhile (which is then left as it is).
    private func write(_ key: String, replacing: Bool) throws(LobbyKeyFileError) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = "\(directory.isEmpty ? "." : directory)/.\(Self.fileName(of: path)).\(getpid()).tmp"
        // A temporary file left by a crashed run with our pid is ours to replace.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: Self.reason(errno)) }
        var placed = false
        defer { if !placed { unlink(temporary) } }
        let bytes = Array((key + "\n").utf8)
        var failure: String?
        // The umask can only narrow 0600; fchmod states the intent whatever it is.
        if fchmod(fd, 0o600) != 0 {
            failure = Self.reason(errno)
        } else {
            // 49 bytes to a new file: one write, unless the disk is full (then errno says so).
            let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) }
            if written != bytes.count {
                failure = written < 0 ? Self.reason(errno) : "short write (\(written) of \(bytes.count) bytes)"
            } else if fsync(fd) != 0 {
                failure = Self.reason(errno)
            }
        }
        close(fd)
        if let failure { throw .cannotWrite(path: path, reason: failure) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw .cannotWrite(path: path, reason: Self.reason(errno)) }
        } else {
            // link() fails on an existing target, where rename() would replace it.
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { return false }
                throw .cannotWrite(path: path, reason: Self.reason(errno))
            }
            unlink(temporary)
        }
        placed = true
        syncDirectory(directory.isEmpty ? "." : directory)
        return true
    }

    /// Makes the new directory entry durable. Best effort: the key itself is already synced, and
    /// some file systems refuse to sync a directory.
    private func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func fileName(of path: String) -> String {
        (path as NSString).lastPathComponent
    }

    private static func reason(_ code: Int32) -> String {
        OwnerOnlyFile.reason(code)
    }
}
