/// The lines the server prints once it listens: where it is, the viewer link, whether the lobby key survives a restart, the host link.
///
/// Scripts and the e2e tests parse these (`listening on http://([^:]+):(\d+)` and
/// `#key=([0-9a-f]{48})`), so their shape is part of the interface. The host link is the only
/// place a host key is ever logged.
public struct StartupBanner: Sendable, Hashable {
    /// The bound address, as configured.
    public var host: String
    /// The actual port (never 0: the one the OS picked, if 0 was asked for).
    public var port: Int
    /// Whether the server speaks https/wss.
    public var tls: Bool
    /// The lobby's host key.
    public var lobbyHostKey: String

    /// Where the lobby key came from, for the line that says whether the host link survives a
    /// restart.
    public var lobbyKeyOrigin: LobbyKeySetting.Origin

    public init(host: String, port: Int, tls: Bool, lobbyHostKey: String,
                lobbyKeyOrigin: LobbyKeySetting.Origin = .perProcess) {
        self.host = host
        self.port = port
        self.tls = tls
        self.lobbyHostKey = lobbyHostKey
        self.lobbyKeyOrigin = lobbyKeyOrigin
    }

    /// `http://127.0.0.1:8080`, with the bound host as configured.
    public var listeningURL: String { "\(scheme)://\(Self.urlHost(host)):\(port)" }

    /// The links are for a person to open: a wildcard bind address (`0.0.0.0`, `::`) is not
    /// something to browse to, so they use loopback instead.
    public var linkBase: String {
        let linkHost = (host == "0.0.0.0" || host == "::" || host == "[::]") ? "127.0.0.1" : host
        return "\(scheme)://\(Self.urlHost(linkHost)):\(port)"
    }

    /// Anyone with this link can watch the lobby.
    public var viewerLink: String { "\(linkBase)/?room=lobby" }

    /// Whoever has this link can start draws in the lobby. The key sits after `#`, which browsers
    /// never send to a server, so it does not end up in access logs or Referer headers.
    public var hostLink: String { "\(viewerLink)#key=\(lobbyHostKey)" }

    /// The banner, one line each.
    public var lines: [String] { publicLines + [hostLinkLine] }

    /// The lines without a secret: what `--log-format json` logs.
    public var publicLines: [String] {
        [
            "live-draw listening on \(listeningURL)",
            "viewer link: \(viewerLink)",
            // Before the host link, which scripts (and the e2e launcher) take as "ready": the
            // line about the key is then already out when they look for it.
            lobbyKeyLine,
        ]
    }

    /// The one line with the lobby's host key, last. In `--log-format json` it is not logged
    /// (log collectors keep and index what they get) but written once to standard error.
    public var hostLinkLine: String { "host link (keep it private: it starts draws): \(hostLink)" }

    /// Whether the host link above still works after a restart. Names the file, never the key.
    public var lobbyKeyLine: String {
        switch lobbyKeyOrigin {
        case .perProcess:
            return "lobby key is per-process: it changes on restart (--data-dir off; --lobby-key-file keeps one)"
        case .file(let path, .read):
            return "lobby key: kept in \(path), the same after a restart (--rotate-lobby-key replaces it)"
        case .file(let path, .created):
            return "lobby key: new, kept in \(path), the same after a restart (--rotate-lobby-key replaces it)"
        case .file(let path, .rotated):
            return "lobby key: rotated, the new one is kept in \(path); host links with the old key no longer work"
        }
    }

    private var scheme: String { tls ? "https" : "http" }

    /// IPv6 literals need brackets in a URL.
    private static func urlHost(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
