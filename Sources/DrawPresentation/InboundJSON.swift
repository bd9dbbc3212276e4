import Foundation

/// Every JSON a peer sends the server (WebSocket client messages, `ClientMessage`; HTTP request
/// bodies, `CreateRoomRequest`) is read here, with one parser and one rule: the top level must
/// be an object, else `bad_json`; each field is then read leniently by its expected type, so a
/// field of the wrong type reads as its own error (or as absent), never as bad JSON.
enum InboundJSON {
    /// Decodes `bytes` as `T`, whose `init(from:)` takes a keyed container (so anything but an
    /// object fails) and reads each field with `try?`. `nil`: not JSON, or not an object.
    static func object<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(bytes))
    }
}
