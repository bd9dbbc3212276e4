import DrawCore

/// A host's upload of the seed's two JSON lists (`users.json` and `usersInLottery.json`), mapped
/// and merged exactly as the operator's lists are (the fields `UserListMapper` and
/// `LotteryListMapper` read, `PlayerMerger`: same rules, same warnings), within an upload's
/// `EntrantListLimits`, each document read in one pass (`EntrantListJSONReader`).
public enum UploadedJSONLists {
    /// How the two documents are named in errors.
    static let usersList = "users list"
    static let lotteryList = "lottery list"

    /// - Throws: `bodyTooLarge` (naming the list), `malformedJSON` / `invalidData` (as the
    ///   operator's lists would fail), `noEntrants` (with the merge warnings), `tooManyEntrants`,
    ///   or `nameTooLong` / `nameTooManyBytes` for a player's name or username. Nothing partial is
    ///   ever returned.
    public static func merge(users: [UInt8], lottery: [UInt8],
                             limits: EntrantListLimits) throws(EntrantListError) -> MergeResult {
        for (body, list) in [(users, usersList), (lottery, lotteryList)] where body.count > limits.maxBodyBytes {
            throw .bodyTooLarge(list: list, limitBytes: limits.maxBodyBytes)
        }
        return try EntrantListJSONReader.readDocuments(users: users, lottery: lottery, limits: limits)
    }
}
