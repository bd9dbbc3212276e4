import LiveDrawCLI
import Testing

struct StartupBannerTests {
    private let key = String(repeating: "ab", count: 24)

    @Test func linesHaveTheShapeScriptsParse() {
        let lines = StartupBanner(host: "127.0.0.1", port: 8080, tls: false, lobbyHostKey: key).lines
        #expect(lines == [
            "live-draw listening on http://127.0.0.1:8080",
            "viewer link: http://127.0.0.1:8080/?room=lobby",
            "host link (keep it private: it starts draws): http://127.0.0.1:8080/?room=lobby#key=\(key)",
        ])
        // The e2e tests' patterns: listening on http://([^:]+):(\d+) and #key=([0-9a-f]{48}).
        #expect(lines[0].contains(/listening on http:\/\/([^:]+):(\d+)/))
        #expect(lines.filter { $0.contains(/#key=[0-9a-f]{48}/) }.count == 1)
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
}
