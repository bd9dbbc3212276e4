@testable import DrawData
import DrawCore
import Foundation

/// The JSON upload as it was read before issue 31 (`JSONSerialization` over the whole body, each
/// list re-serialised and decoded again by the operator's mappers, then merged and checked), kept
/// only as the oracle `EntrantListJSONReaderTests` compares the one-pass reader with.
enum LegacyJSONUpload {
    static let upload = "upload"

    static func read(_ body: [UInt8], limits: EntrantListLimits) throws(EntrantListError) -> MergeResult {
        guard body.count <= limits.maxBodyBytes else { throw .bodyTooLarge(list: upload, limitBytes: limits.maxBodyBytes) }
        let (users, lottery) = try split(body)
        let merged: MergeResult
        do {
            let userList = try UserListMapper.users(from: Data(users), source: "users list")
            let entries = try LotteryListMapper.entries(from: Data(lottery), source: "lottery list")
            merged = try PlayerMerger.merge(users: userList, entries: entries)
        } catch let error as DataSourceError {
            switch error {
            case .malformedJSON(let list, let detail): throw .malformedJSON(list: list, detail: detail)
            case .invalidData(let list, let detail): throw .invalidData(list: list, detail: detail)
            default: throw .invalidData(list: error.source, detail: error.message)
            }
        } catch let error as DrawError {
            throw .noEntrants(warnings: error.warnings)
        } catch {
            preconditionFailure("unexpected \(error)")
        }
        try limits.check(entrantCount: merged.players.count)
        for p in merged.players {
            try limits.check(name: p.name, at: .userName(userId: p.userId))
            try limits.check(name: p.username, at: .username(userId: p.userId))
        }
        return merged
    }

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
