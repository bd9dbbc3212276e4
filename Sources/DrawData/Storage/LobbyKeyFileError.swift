import DrawCore

/// Why the lobby key file cannot be used, in one line an operator can act on. The server must
/// not start then: a fresh key would silently break every host link handed out before.
///
/// No case ever carries the file's content: it is a secret, even when malformed.
public enum LobbyKeyFileError: OwnerOnlyFileError, Sendable, Hashable, CustomStringConvertible {
    /// The file is not there (and was not to be created).
    case missing(path: String)
    /// The file cannot be opened or read, or is not a regular file.
    case unreadable(path: String, reason: String)
    /// The content is not one key.
    case malformed(path: String, detail: String)
    /// Others than the file's owner may access it (`mode` in octal, e.g. "644").
    case exposed(path: String, mode: String)
    /// A new key could not be written.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "the lobby key file \(path) does not exist; create one with "
                + "'(umask 077; openssl rand -hex 24 > \(path))', or start once with --rotate-lobby-key to write it"
        case .unreadable(let path, let reason):
            return "cannot read the lobby key file \(path): \(reason)"
        case .malformed(let path, let detail):
            return "the lobby key file \(path) is malformed: \(detail); it must hold one key of "
                + "\(HostKey.length) lowercase hex characters ('openssl rand -hex 24'), or rotate it with --rotate-lobby-key"
        case .exposed(let path, let mode):
            return "the lobby key file \(path) is accessible by group or others (mode \(mode)); "
                + "it holds the lobby's host key: run 'chmod 600 \(path)'"
        case .cannotWrite(let path, let reason):
            return "cannot write the lobby key file \(path): \(reason)"
        }
    }
}
