import DrawPresentation

/// `GET /api/rooms/ROOM/qr.svg`: the room's viewer link as a QR code, for the page's share panel
/// and for anyone who puts the room on a screen or a poster. Service thread only.
final class RoomQRAPI {
    /// `https` under TLS: the link's scheme.
    let tls: Bool
    unowned let directory: RoomDirectory

    init(tls: Bool, directory: RoomDirectory) {
        self.tls = tls
        self.directory = directory
    }

    /// The link is absolute, so it is built from the `Host` the browser asked (`host`: the name
    /// people reach this server by, proxies included) and the server's scheme. A missing or odd
    /// `Host` is refused: it would draw a link nobody can open.
    func svg(_ name: String, host: String?, _ request: APIRequest) -> HTTPResponse? {
        guard let host, Self.isPlainHost(host) else {
            return .json(400, APIMessages.error(.badRequest, message: "The request needs a Host header with a host name."))
        }
        let scheme = tls ? "https" : "http"
        return request.withRoom(name, in: directory) { room, reply in
            let link = "\(scheme)://\(host)\(APIMessages.viewerPath(room: room.name))"
            guard let svg = QRCode.svg(link) else { return reply(.json(500, APIMessages.error(.internalError))) }
            reply(HTTPResponse(status: 200, contentType: "image/svg+xml", body: Array(svg.utf8)))
        }
    }

    /// `name[:port]` or `[v6]:port` in plain ASCII: nothing that could change the link's meaning.
    static func isPlainHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 255 else { return false }
        return host.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":")
                || b == UInt8(ascii: "[") || b == UInt8(ascii: "]")
        }
    }
}
