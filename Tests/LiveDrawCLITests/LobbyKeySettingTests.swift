import DrawCore
import DrawData
import Foundation
import LiveDrawCLI
import Testing

/// From options to where the lobby key comes from, and what resolving it at start does.
struct LobbyKeySettingTests {
    private func configure(_ arguments: [String], in tree: TempTree) throws -> LaunchConfiguration {
        try LaunchConfiguration(options: LaunchOptions.parse(arguments), paths: tree.paths)
    }

    @Test func dataDirOffWithoutAFileIsPerProcess() throws {
        let c = try configure(["--data-dir", "off"], in: TempTree())
        #expect(c.lobbyKey == .perProcess)
        let first = try c.lobbyKey.resolve(random: SystemRandomSource())
        let second = try c.lobbyKey.resolve(random: SystemRandomSource())
        #expect(first.origin == .perProcess)
        #expect(HostKey.isWellFormed(first.key))
        #expect(first.key != second.key)
    }

    @Test func anOperatorFileWorksWithRecordingOff() throws {
        let tree = try TempTree()
        let c = try configure(["--data-dir", "off", "--lobby-key-file", "/run/secrets/lobby"], in: tree)
        #expect(c.lobbyKey == .file(LobbyKeyFile(path: "/run/secrets/lobby"), createIfMissing: false, rotate: false))
    }

    @Test func rotatingWithNothingToRotateIsRefused() throws {
        let tree = try TempTree()
        #expect(throws: ConfigurationError("--rotate-lobby-key has no key file to write: with --data-dir off the lobby key "
                                           + "is per-process already; give --lobby-key-file to keep one")) {
            try configure(["--data-dir", "off", "--rotate-lobby-key"], in: tree)
        }
    }

    @Test func aDirectoryIsNoKeyFile() throws {
        let tree = try TempTree()
        #expect(throws: ConfigurationError("--lobby-key-file: \(tree.root)/public is a directory, not a key file")) {
            try configure(["--lobby-key-file", "public"], in: tree)
        }
    }

    @Test func theEnvironmentSetsTheFileButNeverRotates() throws {
        let tree = try TempTree()
        let decision = Launch.decide(arguments: [], environment: ["LIVE_DRAW_LOBBY_KEY_FILE": "k.key",
                                                                  "LIVE_DRAW_ROTATE_LOBBY_KEY": "1"],
                                     paths: tree.paths)
        guard case .run(let c) = decision else {
            Issue.record("expected run, got \(decision)")
            return
        }
        #expect(c.lobbyKey == .file(LobbyKeyFile(path: tree.root + "/k.key"), createIfMissing: false, rotate: false))
    }

    @Test func dataDirectoryKeyIsWrittenOnceThenReadThenRotated() throws {
        let tree = try TempTree()
        let setting = try configure(["--data-dir", "db"], in: tree).lobbyKey
        try FileManager.default.createDirectory(atPath: tree.root + "/db", withIntermediateDirectories: true)
        let created = try setting.resolve(random: SystemRandomSource())
        #expect(created.origin == .file(path: tree.root + "/db/lobby.key", .created))
        let read = try setting.resolve(random: SystemRandomSource())
        #expect(read.origin == .file(path: tree.root + "/db/lobby.key", .read))
        #expect(read.key == created.key)

        let rotating = try configure(["--data-dir", "db", "--rotate-lobby-key"], in: tree).lobbyKey
        let rotated = try rotating.resolve(random: SystemRandomSource())
        #expect(rotated.origin == .file(path: tree.root + "/db/lobby.key", .rotated))
        #expect(rotated.key != created.key)
        #expect(try setting.resolve(random: SystemRandomSource()).key == rotated.key)
    }
}
