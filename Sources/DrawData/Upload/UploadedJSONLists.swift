import DrawCore
import Foundation

/// A host's upload of the seed's two JSON lists (`users.json` and `usersInLottery.json`), mapped
/// and merged exactly as the operator's lists are (`UserListMapper`, `LotteryListMapper`,
/// `PlayerMerger`: same rules, same warnings), within an upload's `EntrantListLimits`.
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
        let merged: MergeResult
        do {
            let userList = try UserListMapper.users(from: Data(users), source: usersList)
            let entries = try LotteryListMapper.entries(from: Data(lottery), source: lotteryList)
            merged = try PlayerMerger.merge(users: userList, entries: entries)
        } catch let error as DataSourceError {
            throw listError(error)
        } catch let error as DrawError {
            throw .noEntrants(warnings: error.warnings)
        } catch {
            preconditionFailure("the mappers and the merger throw only DataSourceError and DrawError")
        }
        try limits.check(entrantCount: merged.players.count)
        for p in merged.players {
            try limits.check(name: p.name, at: .userName(userId: p.userId))
            try limits.check(name: p.username, at: .username(userId: p.userId))
        }
        return merged
    }

    /// The mappers' decoding failures, as an upload's.
    private static func listError(_ error: DataSourceError) -> EntrantListError {
        switch error {
        case .malformedJSON(let list, let detail): return .malformedJSON(list: list, detail: detail)
        case .invalidData(let list, let detail): return .invalidData(list: list, detail: detail)
        default: return .invalidData(list: error.source, detail: error.message)
        }
    }
}
