import Foundation

/// One HTTP/1.1 request over a fresh connection (`Connection: close`), raw enough to send
/// paths no HTTP library would (`/../`, `%2e`, backslashes).
enum TestHTTP {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// - Parameter source: the loopback address to send from (another client: `127.0.0.2`).
    static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                        body: [UInt8]? = nil, source: String? = nil) throws -> Response {
        let socket = try TestSocket(port: port, source: source)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try socket.send(Array(head.utf8) + (body ?? []))
        let raw = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = raw.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        var parsed: [String: String] = [:]
        for line in lines where line.contains(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            parsed[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(parsed["content-length"] ?? "")
        let responseBody = try length.map { try socket.read($0) } ?? socket.readToEnd()
        return Response(status: status, headers: parsed, body: responseBody)
    }

    /// A JSON body, sent as `Content-Type: application/json` unless `headers` names another type.
    static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:],
                        json: String, source: String? = nil) throws -> Response {
        var headers = headers
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { headers["Content-Type"] = "application/json" }
        return try request(port: port, method, path, headers: headers, body: Array(json.utf8), source: source)
    }

    /// Polls `GET /api/rooms/ROOM` until `done` says so, for at most a few seconds. False on timeout.
    static func waitForRoom(_ port: Int, _ room: String, _ done: (Response) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if done(try request(port: port, "GET", "/api/rooms/\(room)")) { return true }
            Thread.sleep(forTimeInterval: 0.02) // between polls of a bounded wait
        }
        return false
    }
}
