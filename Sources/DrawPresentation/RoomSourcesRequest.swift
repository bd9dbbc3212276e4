import DrawCore
import Foundation

/// The body of `PUT /api/rooms/ROOM/entrants` that names the room's list URLs instead of carrying
/// the lists (issue 15): `{"usersUrl":"https://…","lotteryUrl":"https://…"}`, both required,
/// nothing else. Whether the URLs may be fetched is the server's to check (`RoomURLSources`).
public enum RoomSourcesRequest {
    /// Such bodies are small; a larger JSON body is an upload of the lists themselves, and is not
    /// parsed twice.
    public static let maxBytes = 8 * 1024

    /// `nil` when `body` is not a URL request (the lists themselves, or not JSON: the upload's
    /// reader says why); else the two URLs, or why not (`bad_request`-like refusals as
    /// `source_url_invalid`, with a sentence).
    public static func parse(_ body: [UInt8]) -> Result<DrawSources, RoomSettingsRequest.Refusal>? {
        guard body.count <= maxBytes,
              let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              object["usersUrl"] != nil || object["lotteryUrl"] != nil else { return nil }
        guard let users = object["usersUrl"] as? String, let lottery = object["lotteryUrl"] as? String else {
            return .failure(.init(code: .sourceURLInvalid, message: #"Give both list URLs as strings: {"usersUrl":"https://…","lotteryUrl":"https://…"}."#))
        }
        if let other = object.keys.sorted().first(where: { $0 != "usersUrl" && $0 != "lotteryUrl" }) {
            return .failure(.init(code: .sourceURLInvalid, message: "Unknown member \"\(other)\": send either the lists or their two URLs (usersUrl, lotteryUrl)."))
        }
        return .success(DrawSources(usersURL: users, lotteryURL: lottery))
    }
}
