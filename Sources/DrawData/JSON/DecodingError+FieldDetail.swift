extension DecodingError {
    /// A short sentence naming the field and what is wrong with it, such as
    /// `items[2].username is missing` or
    /// `lotteryList[0].void has the wrong type (expected true or false, found null)`.
    var fieldDetail: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "\(Self.path(context.codingPath + [key])) is missing"
        case .valueNotFound(_, let context):
            return "\(Self.path(context.codingPath)) is null"
        case .typeMismatch(let type, let context):
            let found = Self.foundValue(in: context.debugDescription).map { ", found \($0)" } ?? ""
            return "\(Self.path(context.codingPath)) has the wrong type (expected \(Self.describe(type))\(found))"
        case .dataCorrupted(let context):
            return "\(Self.path(context.codingPath)) is \(context.debugDescription)"
        @unknown default:
            return String(describing: self)
        }
    }

    /// `["items", 2, "username"]` as `items[2].username`; the empty path is the top-level value.
    static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the top-level value" }
        var out = ""
        for key in keys {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return out
    }

    /// What the decoder found instead, from its message ("Expected to decode Bool but found null
    /// instead." gives "null"); `nil` if the message has another form. Only used as a hint.
    private static func foundValue(in message: String) -> String? {
        guard let start = message.range(of: "but found "),
              let end = message.range(of: " instead", range: start.upperBound..<message.endIndex)
        else { return nil }
        return String(message[start.upperBound..<end.lowerBound])
    }

    /// A JSON-ish name for the Swift type the decoder expected.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "a whole number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return name
        }
    }
}
