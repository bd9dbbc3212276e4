/// Why an uploaded entrant list was refused, whole: nothing of it is kept.
///
/// Each limit has its own case, naming the limit and its value (`violatedLimit`), so a host
/// learns which one to respect and a client can tell them apart by `code`.
public enum EntrantListError: Error, Sendable, Hashable {
    /// A document is larger than `EntrantListLimits.maxBodyBytes`.
    case bodyTooLarge(list: String, limitBytes: Int)
    /// A plain-text list is not UTF-8; `byteOffset` is where the first bad sequence starts.
    case notUTF8(byteOffset: Int)
    /// More entrants than `EntrantListLimits.maxEntrants`.
    case tooManyEntrants(limit: Int)
    /// A name or username longer than `EntrantListLimits.maxNameCharacters`.
    case nameTooLong(at: EntrantListPosition, limitCharacters: Int)
    /// A name or username longer than `EntrantListLimits.maxNameBytes` in UTF-8.
    case nameTooManyBytes(at: EntrantListPosition, limitBytes: Int)
    /// Nobody is left to draw from (an empty list, or a merge that left nobody); the warnings
    /// say why when there are any.
    case noEntrants(warnings: [MergeWarning])
    /// A JSON list is not JSON; `detail` says where.
    case malformedJSON(list: String, detail: String)
    /// A JSON list has the wrong shape; `detail` names the field.
    case invalidData(list: String, detail: String)

    /// A stable machine-readable code for the 4xx answer.
    public var code: String {
        switch self {
        case .bodyTooLarge: return "list_too_large"
        case .notUTF8: return "list_not_utf8"
        case .tooManyEntrants: return "too_many_entrants"
        case .nameTooLong: return "name_too_long"
        case .nameTooManyBytes: return "name_too_many_bytes"
        case .noEntrants: return "no_entrants"
        case .malformedJSON: return "list_malformed_json"
        case .invalidData: return "list_invalid_data"
        }
    }

    /// The limit that was exceeded, by its `EntrantListLimits` name, with its value; `nil` when
    /// the list broke no limit (it is malformed or empty).
    public var violatedLimit: EntrantListLimitViolation? {
        switch self {
        case .bodyTooLarge(_, let v): return EntrantListLimitViolation(name: "maxBodyBytes", value: v)
        case .tooManyEntrants(let v): return EntrantListLimitViolation(name: "maxEntrants", value: v)
        case .nameTooLong(_, let v): return EntrantListLimitViolation(name: "maxNameCharacters", value: v)
        case .nameTooManyBytes(_, let v): return EntrantListLimitViolation(name: "maxNameBytes", value: v)
        case .notUTF8, .noEntrants, .malformedJSON, .invalidData: return nil
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .bodyTooLarge(let list, let limit):
            return "The \(list) is larger than \(limit) bytes, the limit for one list."
        case .notUTF8(let offset):
            return "The list is not UTF-8 text: the bytes at offset \(offset) are not valid UTF-8."
        case .tooManyEntrants(let limit):
            return "The list has more than \(limit) entrants, the limit for one room."
        case .nameTooLong(let at, let limit):
            return "The \(at.field) \(at.place) is longer than \(limit) characters, the limit for a name."
        case .nameTooManyBytes(let at, let limit):
            return "The \(at.field) \(at.place) is longer than \(limit) bytes of UTF-8, the limit for a name."
        case .noEntrants(let warnings):
            let why = warnings.isEmpty ? "" : " (\(warnings.count) merge warning\(warnings.count == 1 ? "" : "s"))"
            return "The list has no entrants\(why)."
        case .malformedJSON(let list, let detail):
            return "The \(list) is not valid JSON: \(detail)."
        case .invalidData(let list, let detail):
            return "The \(list) is JSON of the wrong shape: \(detail)."
        }
    }

    /// Warnings gathered before the failure, for the host.
    public var warnings: [MergeWarning] {
        if case .noEntrants(let w) = self { return w }
        return []
    }
}
