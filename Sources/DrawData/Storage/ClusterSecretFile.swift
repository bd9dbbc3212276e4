import DrawCore

/// The cluster's shared secret (`--cluster-secret-file`, docs/SCALING.md "Security notes"): the
/// key of the MAC every envelope between nodes carries (`EnvelopeSeal`). A file rather than an
/// option, so the secret never shows in `ps` or a shell's history; the same file on every node.
///
/// The same rules as the lobby key file where they fit: it must exist (it is never made here:
/// every node needs the same one), be readable by its owner only, and hold at least
/// `EnvelopeSeal.minimumSecretBytes` bytes after a final line break is trimmed
/// (`openssl rand -hex 32` writes 64). The bytes are the secret as they are: hex is not decoded.
public enum ClusterSecretFile {
    /// More than this is not a secret file (and is not read whole).
    static let maxBytes = 4096

    /// The seal made from the file's secret.
    public static func load(path: String) throws(ClusterSecretFileError) -> EnvelopeSeal {
        let secret = try OwnerOnlyFile.line(path, maxBytes: maxBytes, as: ClusterSecretFileError.self)
        guard let seal = EnvelopeSeal(secret: Array(secret)) else {
            throw .malformed(path: path, detail: "it holds \(secret.count) bytes, fewer than \(EnvelopeSeal.minimumSecretBytes)")
        }
        return seal
    }
}

/// Why the cluster's secret file cannot be used, in one line; never with the file's content.
public enum ClusterSecretFileError: OwnerOnlyFileError, Sendable, Hashable, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case malformed(path: String, detail: String)
    case exposed(path: String, mode: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "the cluster secret file \(path) does not exist; create it with "
                + "'openssl rand -hex 32 > \(path) && chmod 600 \(path)' and copy the same file to every node"
        case .unreadable(let path, let reason):
            return "cannot read the cluster secret file \(path): \(reason)"
        case .malformed(let path, let detail):
            return "the cluster secret file \(path) is not usable: \(detail); "
                + "make one with 'openssl rand -hex 32' (the same file on every node)"
        case .exposed(let path, let mode):
            return "the cluster secret file \(path) is accessible by group or others (mode \(mode)); "
                + "anyone who reads it can speak for a node: run 'chmod 600 \(path)'"
        }
    }
}
