import DrawCore
import DrawData
import Foundation

/// Shared test data: the repository's `defaults/` files and the entities they hold.
enum Fixtures {
    /// `<repo>/defaults`, found from this file's path so tests work from any directory.
    static let defaultsDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)   // <repo>/Tests/DrawDataTests/Support/Fixtures.swift
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("defaults").path
    }()

    static var usersPath: String { defaultsDirectory + "/users.json" }
    static var lotteryPath: String { defaultsDirectory + "/usersInLottery.json" }

    static func contents(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The users in `defaults/users.json`, in order.
    static let users: [User] = [
        user(10, "Jack Alexy", "JAlex", "2020-10-19"),
        user(22, "Mr. Hashemi", "Hashaaa", "2019-08-19"),
        user(4, "Mack", "mackMack13", "2018-10-02"),
        user(18, "Pack", "packPackDom", "2018-04-12"),
        user(182, "Mohsen", "AghaMohsen", "2020-04-12"),
    ]

    /// The entries in `defaults/usersInLottery.json`, in order.
    static let entries: [LotteryEntry] = [
        LotteryEntry(userId: 10, isVoid: false),
        LotteryEntry(userId: 22, isVoid: false),
        LotteryEntry(userId: 4, isVoid: false),
        LotteryEntry(userId: 182, isVoid: true),
    ]

    private static func user(_ id: Int, _ name: String, _ username: String, _ date: String) -> User {
        User(userId: id, name: name, username: username, regDate: CalendarDate(iso: date)!)
    }

    /// A client with short limits, so failure tests finish fast.
    static func client(totalTimeout: Duration = .seconds(5), maxResponseBytes: Int = 1024) -> CurlHTTPClient {
        CurlHTTPClient(configuration: .init(connectTimeout: .seconds(2), totalTimeout: totalTimeout,
                                                     maxResponseBytes: maxResponseBytes))
    }
}
