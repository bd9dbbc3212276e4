import DrawCore
import Foundation

/// The server's `EntrantListReader`: a plain-text list (`PlainTextEntrantList`) or the seed's two
/// JSON lists in one object (`{"users":…,"usersInLottery":…}`, each the seed's document
/// (`{"items":[…]}`, `{"lotteryList":[…]}`) or just its array; `UploadedJSONLists`), within
/// `limits`, read in one pass (`EntrantListJSONReader`). Plain-text entrants are registered on the
/// day of the upload (`today`).
public struct UploadedEntrantList: EntrantListReader {
    public let limits: EntrantListLimits
    private let today: @Sendable () -> CalendarDate

    public init(limits: EntrantListLimits, today: @escaping @Sendable () -> CalendarDate) {
        self.limits = limits
        self.today = today
    }

    public func read(_ body: consuming [UInt8], as format: EntrantListFormat) throws(EntrantListError) -> RoomEntrants {
        switch format {
        case .plainText:
            let merged = try PlainTextEntrantList.parse(consume body, limits: limits, registeredOn: today())
            return RoomEntrants(players: merged.players, warnings: merged.warnings, sources: EntrantsOrigin.plainText)
        case .jsonLists:
            guard body.count <= limits.maxBodyBytes else {
                throw .bodyTooLarge(list: Self.upload, limitBytes: limits.maxBodyBytes)
            }
            let merged = try EntrantListJSONReader.readUpload(consume body, limits: limits, name: Self.upload)
            return RoomEntrants(players: merged.players, warnings: merged.warnings, sources: EntrantsOrigin.jsonLists)
        }
    }

    /// How the JSON body as a whole is named in errors.
    static let upload = "upload"
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
