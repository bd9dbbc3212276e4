import DrawCore
import DrawData

/// Where the lobby's host key comes from, as the options chose it (`LaunchConfiguration.lobbyKey`),
/// and what starting with it did (`resolve`).
public enum LobbyKeySetting: Sendable, Hashable {
    /// A new key at every start (`--data-dir off` without `--lobby-key-file`): the lobby's host
    /// link changes on restart, as the banner says.
    case perProcess
    /// The key in `file`; a missing file is written with a new key when `createIfMissing` (the
    /// data directory's `lobby.key`) and refused otherwise (an operator's `--lobby-key-file`, where
    /// a missing file is more likely a mistyped path than a wish for a new key). `rotate` writes a
    /// new key first (`--rotate-lobby-key`).
    case file(LobbyKeyFile, createIfMissing: Bool, rotate: Bool)

    /// What the banner says about the key.
    public enum Origin: Sendable, Hashable {
        case perProcess
        /// The key in `path`: read, written for the first time, or rotated.
        case file(path: String, LobbyKeyFile.Origin)
    }

    /// The key to start with. Throws, with one line for the operator, when the file is missing
    /// (and may not be created), unreadable, malformed, readable by others, or cannot be written.
    /// Call it once the data directory exists and is this process's (after the draw store took
    /// its lock), so no other live-draw writes the same file meanwhile.
    public func resolve(random: any RandomSource) throws(LobbyKeyFileError) -> (key: String, origin: Origin) {
        switch self {
        case .perProcess:
            return (HostKey.generate(using: random), .perProcess)
        case .file(let file, _, true):
            return (try file.rotate(random: random), .file(path: file.path, .rotated))
        case .file(let file, let createIfMissing, false):
            let (key, origin) = try file.load(createIfMissing: createIfMissing, random: random)
            return (key, .file(path: file.path, origin))
        }
    }
}
