import DrawPresentation
import Foundation

/// The body of `POST /api/rooms`: `{}` or `{"name":"my-room"}` (an empty body counts as `{}`).
enum CreateRoomRequest {
    /// The requested name (`nil`: generate one), or why the body is refused.
    static func parse(_ body: [UInt8]) -> Result<String?, ClientErrorCode> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }) { return .success(nil) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return .failure(.badJSON)
        }
        guard let raw = object["name"], !(raw is NSNull) else { return .success(nil) }
        guard let name = raw as? String, RoomName.isValid(name) else { return .failure(.badRoomName) }
        return .success(name)
    }
}
