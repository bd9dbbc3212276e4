import DrawCore
import Foundation

/// The server's `EntrantListReader`: a plain-text list (`PlainTextEntrantList`) or the seed's two
/// JSON lists in one object (`{"users":…,"usersInLottery":…}`, each the seed's document
/// (`{"items":[…]}`, `{"lotteryList":[…]}`) or just its array; `UploadedJSONLists`), within
/// `limits`. Plain-text entrants are registered on the day of the upload (`today`).
public struct UploadedEntrantList: EntrantListReader {
    public let limits: EntrantListLimits
    private let today: @Sendable () -> CalendarDate

    public init(limits: EntrantListLimits, today: @escaping @Sendable () -> CalendarDate) {
        self.limits = limits
        self.today = today
    }

    public func read(_ body: [UInt8], as format: EntrantListFormat) throws(EntrantListError) -> RoomEntrants {
        switch format {
        case .plainText:
            let merged = try PlainTextEntrantList.parse(body, limits: limits, registeredOn: today())
            return RoomEntrants(players: merged.players, warnings: merged.warnings, sources: EntrantsOrigin.plainText)
        case .jsonLists:
            guard body.count <= limits.maxBodyBytes else {
                throw .bodyTooLarge(list: Self.upload, limitBytes: limits.maxBodyBytes)
            }
            let (users, lottery) = try Self.split(body)
            let merged = try UploadedJSONLists.merge(users: users, lottery: lottery, limits: limits)
            return RoomEntrants(players: merged.players, warnings: merged.warnings, sources: EntrantsOrigin.jsonLists)
        }
    }

    static let upload = "upload"

    /// The two lists of the upload's object, each as JSON bytes of its own for the seed's mappers.
    /// Both are within the body's size, so the limits checked on each hold for the whole.
    static func split(_ body: [UInt8]) throws(EntrantListError) -> (users: [UInt8], lottery: [UInt8]) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(body))
        } catch {
            throw .malformedJSON(list: upload, detail: "the body must be one JSON object")
        }
        guard let fields = object as? [String: Any] else {
            throw .invalidData(list: upload, detail: #"the body must be an object {"users":[…],"usersInLottery":[…]}"#)
        }
        var lists: [[UInt8]] = []
        // Each member is the seed's document (`{"items":[…]}`, `{"lotteryList":[…]}`), or just its array.
        for (key, member) in [("users", "items"), ("usersInLottery", "lotteryList")] {
            let document: Any
            switch fields[key] {
            case let list as [Any]: document = [member: list]
            case let object as [String: Any]: document = object
            default:
                throw .invalidData(list: upload, detail: "\"\(key)\" must be an array, or an object with \"\(member)\"")
            }
            guard let data = try? JSONSerialization.data(withJSONObject: document) else {
                throw .invalidData(list: upload, detail: "\"\(key)\" cannot be read")
            }
            lists.append(Array(data))
        }
        return (lists[0], lists[1])
    }
}

extension UploadedEntrantList {
    /// Today's date in UTC, the registration day of a plain-text list's entrants.
    @Sendable public static func utcToday() -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        guard let date = CalendarDate(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1) else {
            preconditionFailure("the calendar gave an invalid date")
        }
        return date
    }
}
