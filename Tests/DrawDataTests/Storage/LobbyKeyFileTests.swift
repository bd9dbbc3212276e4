@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The lobby key file on real files: created once with mode 0600, read back, rotated, and refused
/// (never replaced) when missing where it must exist, malformed, or readable by others.
struct LobbyKeyFileTests {
    static let key = "00112233445566778899aabbccddeeff0011223344556677"

    /// A file at `path` with `content` and `mode`, as an operator might leave it.
    static func put(_ content: String, at path: String, mode: mode_t = 0o600) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(content.utf8))
        chmod(path, mode)
    }

    static func mode(of path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o7777
    }

    static func error(_ body: () throws -> Void) -> LobbyKeyFileError? {
        do { try body() } catch let e as LobbyKeyFileError { return e } catch { Issue.record("\(error)") }
        return nil
    }

    @Test func firstStartWritesAKeyOnlyItsOwnerMayReadAndLaterStartsReadIt() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            // A umask that would make a plain new file world-readable: the key file must not be.
            let old = umask(0o000)
            defer { umask(old) }
            let file = LobbyKeyFile(dataDirectory: dir.url.path + "/")
            #expect(file.path == dir.path("lobby.key"))
            let first = try file.load(createIfMissing: true, random: SystemRandomSource())
            #expect(first.origin == .created)
            #expect(HostKey.isWellFormed(first.key))
            #expect(Self.mode(of: file.path) == 0o600)
            #expect(try String(contentsOfFile: file.path, encoding: .utf8) == first.key + "\n")
            // Nothing but the key is left in the directory (no temporary file).
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["lobby.key"])

            let again = try file.load(createIfMissing: true, random: SystemRandomSource())
            #expect(again.key == first.key)
            #expect(again.origin == .read)
        }
    }

    @Test func operatorKeyIsReadWithOrWithoutALineBreak() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let path = dir.path("operator.key")
            for content in [Self.key, Self.key + "\n", Self.key + "\r\n"] {
                Self.put(content, at: path, mode: 0o400)
                let loaded = try LobbyKeyFile(path: path).load(createIfMissing: false, random: SystemRandomSource())
                #expect(loaded.key == Self.key && loaded.origin == .read)
            }
        }
    }

    @Test func missingOperatorFileIsRefusedNotCreated() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let path = dir.path("typo.key")
            let error = Self.error { _ = try LobbyKeyFile(path: path).load(createIfMissing: false, random: SystemRandomSource()) }
            #expect(error == .missing(path: path))
            #expect(error?.description.contains("openssl rand -hex 24") == true)
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func fileReadableByOthersIsRefusedAndLeftAlone() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let path = dir.path("lobby.key")
            for mode: mode_t in [0o644, 0o640, 0o604, 0o660, 0o601] {
                Self.put(Self.key + "\n", at: path, mode: mode)
                let error = Self.error { _ = try LobbyKeyFile(path: path).load(createIfMissing: true, random: SystemRandomSource()) }
                #expect(error == .exposed(path: path, mode: String(mode, radix: 8)))
                #expect(error?.description.contains("chmod 600 \(path)") == true)
                #expect(error?.description.contains(Self.key) == false)
                let kept = try String(contentsOfFile: path, encoding: .utf8)
                #expect(kept == Self.key + "\n")
            }
        }
    }

    @Test func malformedFileIsRefusedWithoutQuotingIt() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let path = dir.path("lobby.key")
            let cases: [(String, String)] = [
                ("", "empty"),
                ("\n", "empty"),
                (String(Self.key.dropLast()), "47 bytes"),
                (Self.key + "0", "49 bytes"),
                (Self.key.uppercased(), "uppercase"),
                (Self.key + "\n" + Self.key + "\n", "more than one line"),
                ("key = " + Self.key, "54 bytes"),
                (String(repeating: "a", count: 300), "longer than 256"),
            ]
            for (content, detail) in cases {
                Self.put(content, at: path)
                let error = Self.error { _ = try LobbyKeyFile(path: path).load(createIfMissing: true, random: SystemRandomSource()) }
                guard case .malformed(path, let found)? = error else {
                    Issue.record("expected malformed for \(content.debugDescription), got \(String(describing: error))")
                    continue
                }
                #expect(found.contains(detail), "\(found)")
                let line = try #require(error?.description)
                #expect(!line.contains("\n"))
                #expect(content.isEmpty || content == "\n" || !line.contains(content))
                let kept = try String(contentsOfFile: path, encoding: .utf8)
                #expect(kept == content)   // left as it was
            }
        }
    }

    @Test func somethingElseThanAFileIsUnreadable() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let path = dir.path("a-directory")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            chmod(path, 0o700)
            let error = Self.error { _ = try LobbyKeyFile(path: path).load(createIfMissing: true, random: SystemRandomSource()) }
            #expect(error == .unreadable(path: path, reason: "not a regular file"))
        }
    }

    @Test func rotationReplacesTheKeyAtomicallyAndKeepsTheMode() throws {
        try StoreFixtures.withTemporaryDirectory { dir in
            let file = LobbyKeyFile(dataDirectory: dir.url.path)
            let first = try file.load(createIfMissing: true, random: SystemRandomSource()).key
            let second = try file.rotate(random: SystemRandomSource())
            #expect(second != first)
            #expect(HostKey.isWellFormed(second))
            let reread = try file.load(createIfMissing: false, random: SystemRandomSource())
            #expect(reread.key == second && reread.origin == .read)
            #expect(Self.mode(of: file.path) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["lobby.key"])
            // Rotation also writes a file that was not there, and fixes one readable by others.
            let exposed = dir.path("exposed.key")
            Self.put(Self.key, at: exposed, mode: 0o644)
            let fresh = try LobbyKeyFile(path: exposed).rotate(random: SystemRandomSource())
            #expect(try LobbyKeyFile(path: exposed).load(createIfMissing: false, random: SystemRandomSource()).key == fresh)
            #expect(Self.mode(of: exposed) == 0o600)
        }
    }

    @Test func unwritableDirectoryIsACannotWriteError() throws {
        let path = "/proc/live-draw-no-such-dir/lobby.key"
        let error = Self.error { _ = try LobbyKeyFile(path: path).load(createIfMissing: true, random: SystemRandomSource()) }
        guard case .cannotWrite(path, _)? = error else {
            Issue.record("expected cannotWrite, got \(String(describing: error))")
            return
        }
    }
}
