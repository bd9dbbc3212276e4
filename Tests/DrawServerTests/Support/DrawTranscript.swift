import Foundation

/// What one viewer saw of one draw, from `loading` to the message that ended it.
struct DrawTranscript {
    var loading: [String: Any]?
    var started: [String: Any]?
    var rounds: [[String: Any]] = []
    /// `finished`, `aborted` or `failed`.
    var end: [String: Any] = [:]
    /// Every message's raw JSON before the end message, to check what was revealed when.
    var before: [String] = []

    var endType: String { end["type"] as? String ?? "?" }
    var drawId: String { started?["drawId"] as? String ?? "" }
    var commitment: String { started?["commitment"] as? String ?? "" }
    var sentAts: [Double] { rounds.map { $0["sentAt"] as? Double ?? -1 } }

    /// Reads `ws` until a draw ends (skipping presence). `onMessage` sees each draw message as it
    /// arrives, before the next one is read: the place to look at the server at that moment.
    static func read(from ws: TestWebSocket,
                     onMessage: (_ type: String, _ message: [String: Any]) throws -> Void = { _, _ in }) throws -> DrawTranscript {
        var t = DrawTranscript()
        while true {
            let frame = try ws.receive()
            guard case .text(let raw) = frame,
                  let m = try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any] else {
                throw TestWebSocket.UnexpectedFrame(frame: frame)
            }
            let type = m["type"] as? String ?? "?"
            if type == "presence" || type == "snapshot" { continue }
            try onMessage(type, m)
            switch type {
            case "loading": t.loading = m
            case "started": t.started = m
            case "round": t.rounds.append(m)
            case "finished", "aborted", "failed":
                t.end = m
                return t
            default: break
            }
            t.before.append(raw)
        }
    }
}

extension TestWebSocket {
    /// Connects to `room` and reads its snapshot.
    static func joined(port: Int, room: String) throws -> TestWebSocket {
        let ws = try TestWebSocket(port: port, path: "/ws/\(room)")
        _ = try ws.receive(type: "snapshot")
        return ws
    }
}

extension TestHTTP {
    /// `POST /api/rooms/ROOM/draws` with the host key; the status.
    @discardableResult
    static func startDraw(port: Int, room: String, key: String) throws -> Int {
        try request(port: port, "POST", "/api/rooms/\(room)/draws", headers: ["Authorization": "Bearer \(key)"],
                    json: "").status
    }

    /// `POST /api/rooms` for `name`; its host key.
    static func createRoom(port: Int, name: String) throws -> String {
        let created = try request(port: port, "POST", "/api/rooms", json: #"{"name":"\#(name)"}"#)
        guard created.status == 201, let key = created.json?["hostKey"] as? String else {
            throw Refused(status: created.status)
        }
        return key
    }

    /// A room or a draw was refused; `status` says how.
    struct Refused: Error { let status: Int }

    /// `GET path` as a JSON object.
    static func getJSON(port: Int, _ path: String) throws -> (status: Int, json: [String: Any]) {
        let r = try request(port: port, "GET", path)
        return (r.status, r.json ?? [:])
    }
}
