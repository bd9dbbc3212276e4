import DrawCore
import Foundation

/// Turns a users document (`UserListDTO`) into Core `User`s.
enum UserListMapper {
    /// Longest piece of a bad value quoted back in an error, so a hostile body cannot flood the
    /// host's screen through it.
    static let quotedValueLimit = 32

    /// - Throws: `malformedJSON` / `invalidData` from decoding, or `invalidData` naming the item
    ///   whose `regDate` is not a real `yyyy-MM-dd` day.
    static func users(from body: Data, source: String) throws(DataSourceError) -> [User] {
        let document = try JSONBody.decode(UserListDTO.self, from: body, source: source)
        var users: [User] = []
        users.reserveCapacity(document.items.count)
        for (index, item) in document.items.enumerated() {
            guard let regDate = CalendarDate(iso: item.regDate) else {
                throw .invalidData(source: source, detail: "items[\(index)].regDate \(notADay(item.regDate))")
            }
            users.append(User(userId: item.userId.value, name: item.name, username: item.username,
                              regDate: regDate))
        }
        return users
    }

    /// What is wrong with a `regDate` that is no real day, after its path; shared with the
    /// upload's reader (`EntrantListJSONReader`) so both say it alike.
    static func notADay(_ regDate: String) -> String {
        "is not a real yyyy-MM-dd date (\"\(regDate.prefix(quotedValueLimit))\")"
    }
}
