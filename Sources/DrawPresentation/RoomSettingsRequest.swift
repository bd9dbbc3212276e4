import DrawCore

/// The body of `PUT /api/rooms/ROOM/settings`: `{"rounds":…,"intervalMs":…,"decelerateToMs":…,
/// "winners":…,"countdownMs":…,"title":…,"prize":…}`, every member optional; absent or `null`
/// means the operator's value (for `title` and `prize`: none; an empty text is none too). The body replaces the room's settings whole (PUT), so `{}` returns the room to the
/// operator's values. The limits are the server's to check (`RoomSettingsLimits`); this only reads.
public enum RoomSettingsRequest {
    static let fields = ["rounds", "intervalMs", "decelerateToMs", "winners", "countdownMs", "title", "prize"]
    /// The members that are text; the others are whole numbers.
    static let textFields: Set<String> = ["title", "prize"]

    /// The settings, or why not: `bad_json` when the body is not a JSON object, `invalid_settings`
    /// (with a sentence naming the member) for an unknown member or a value that is not a whole
    /// number (or, for `title` and `prize`, not a string).
    public static func parse(_ body: [UInt8]) -> Result<RoomSettings, Refusal> {
        guard let object = InboundJSON.object(Members.self, from: body) else { return .failure(Refusal(code: .badJSON, message: nil)) }
        if let unknown = object.unknown {
            return .failure(Refusal(code: .invalidSettings,
                                    message: "Unknown setting \"\(unknown)\"; the settings are \(fields.joined(separator: ", "))."))
        }
        if let bad = object.notWhole {
            let kind = textFields.contains(bad) ? "text" : "a whole number"
            return .failure(Refusal(code: .invalidSettings, message: "\(bad) must be \(kind) or null."))
        }
        let v = object.values
        return .success(RoomSettings(rounds: v["rounds"], intervalMs: v["intervalMs"], decelerateToMs: v["decelerateToMs"],
                                     winners: v["winners"], countdownMs: v["countdownMs"],
                                     title: object.texts["title"], prize: object.texts["prize"]))
    }

    /// Why a body was refused: the code, and a sentence when it says more than the code's default.
    public struct Refusal: Error {
        public let code: ClientErrorCode
        public let message: String?
    }

    private struct Members: Decodable {
        var values: [String: Int] = [:]
        /// Text members; an empty one is left out (an empty title is no title).
        var texts: [String: String] = [:]
        var unknown: String?
        var notWhole: String?

        struct Key: CodingKey {
            let stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                guard RoomSettingsRequest.fields.contains(key.stringValue) else {
                    if unknown == nil { unknown = key.stringValue }
                    continue
                }
                if (try? c.decodeNil(forKey: key)) == true { continue }
                if RoomSettingsRequest.textFields.contains(key.stringValue) {
                    guard let text = try? c.decode(String.self, forKey: key) else {
                        if notWhole == nil { notWhole = key.stringValue }
                        continue
                    }
                    // Kept as sent (the page trims): trimming here would take a refused line break
                    // at the end, or a length past the limit, for an acceptable value.
                    if !text.isEmpty { texts[key.stringValue] = text }
                    continue
                }
                // Int decoding refuses 2.5, "3", true and numbers past Int: each is not a whole number.
                guard let n = try? c.decode(Int.self, forKey: key) else {
                    if notWhole == nil { notWhole = key.stringValue }
                    continue
                }
                values[key.stringValue] = n
            }
        }
    }
}
