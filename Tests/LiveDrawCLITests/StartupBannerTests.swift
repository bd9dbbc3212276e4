import DrawData
import LiveDrawCLI
import Testing

struct StartupBannerTests {
    private let key = String(repeating: "ab", count: 24)

    @Test func linesHaveTheShapeScriptsParse() {
        let lines = StartupBanner(host: "127.0.0.1", port: 8080, tls: false, lobbyHostKey: key).lines
        #expect(lines == [
            "live-draw listening on http://127.0.0.1:8080",
            "viewer link: http://127.0.0.1:8080/?room=lobby",
            "lobby key is per-process: it changes on restart (--data-dir off; --lobby-key-file keeps one)",
            "host link (keep it private: it starts draws): http://127.0.0.1:8080/?room=lobby#key=\(key)",
        ])
        // The e2e tests' patterns: listening on http://([^:]+):(\d+) and #key=([0-9a-f]{48}).
        #expect(lines[0].contains(/listening on http:\/\/([^:]+):(\d+)/))
        #expect(lines.filter { $0.contains(/#key=[0-9a-f]{48}/) }.count == 1)
    }

    /// JSON logs leave the host link out; it is the banner's only line with a key.
    @Test func theHostLinkIsTheOnlySecretLine() {
        let b = StartupBanner(host: "127.0.0.1", port: 8080, tls: false, lobbyHostKey: key)
        #expect(b.lines == b.publicLines + [b.hostLinkLine])
        #expect(!b.publicLines.contains { $0.contains(key) })
        #expect(b.hostLinkLine.contains("#key=\(key)"))
    }

    @Test func wildcardBindsGetLoopbackLinks() {
        let b = StartupBanner(host: "0.0.0.0", port: 9000, tls: false, lobbyHostKey: key)
        #expect(b.listeningURL == "http://0.0.0.0:9000")
        #expect(b.viewerLink == "http://127.0.0.1:9000/?room=lobby")
    }

    @Test func tlsAndIPv6() {
        let b = StartupBanner(host: "::1", port: 8443, tls: true, lobbyHostKey: key)
        #expect(b.listeningURL == "https://[::1]:8443")
        #expect(b.hostLink == "https://[::1]:8443/?room=lobby#key=\(key)")
    }

    /// The line under the host link says whether that link survives a restart, naming the key
    /// file and never the key.
    @Test func lobbyKeyLineSaysWhatSurvivesARestart() {
        func line(_ origin: LobbyKeySetting.Origin) -> String {
            StartupBanner(host: "127.0.0.1", port: 1, tls: false, lobbyHostKey: key, lobbyKeyOrigin: origin).lines[2]
        }
        #expect(line(.perProcess).hasPrefix("lobby key is per-process: it changes on restart"))
        #expect(line(.file(path: "/d/lobby.key", .read))
            == "lobby key: kept in /d/lobby.key, the same after a restart (--rotate-lobby-key replaces it)")
        #expect(line(.file(path: "/d/lobby.key", .created)).hasPrefix("lobby key: new, kept in /d/lobby.key"))
        #expect(line(.file(path: "/d/lobby.key", .rotated))
            == "lobby key: rotated, the new one is kept in /d/lobby.key; host links with the old key no longer work")
        for origin: LobbyKeySetting.Origin in [.perProcess, .file(path: "/d/k", .read), .file(path: "/d/k", .rotated)] {
            #expect(!line(origin).contains(key))
        }
    }
}
