import DrawCore

/// The seed app's sample data, shared by the Core tests.
enum Fixtures {
    static func date(_ s: String) -> CalendarDate { CalendarDate(iso: s)! }

    static let jack = User(userId: 10, name: "Jack Alexy", username: "JAlex", regDate: date("2020-10-19"))
    static let hashemi = User(userId: 22, name: "Mr. Hashemi", username: "Hashaaa", regDate: date("2019-08-19"))
    static let mack = User(userId: 4, name: "Mack", username: "mackMack13", regDate: date("2018-10-02"))
    static let pack = User(userId: 18, name: "Pack", username: "packPackDom", regDate: date("2018-04-12"))
    static let mohsen = User(userId: 182, name: "Mohsen", username: "AghaMohsen", regDate: date("2020-04-12"))

    static let users = [jack, hashemi, mack, pack, mohsen]
    static let entries = [
        LotteryEntry(userId: 10, isVoid: false), LotteryEntry(userId: 22, isVoid: false),
        LotteryEntry(userId: 4, isVoid: false), LotteryEntry(userId: 182, isVoid: true),
    ]

    /// The four players of the seed data, as `docs/FAIRNESS.md`'s worked example uses them.
    static var samplePlayers: [Player] { try! PlayerMerger.merge(users: users, entries: entries).players }

    /// 32 bytes 0x00...0x1f: the worked example's seed.
    static let exampleSeed = Seed(bytes: Array(0...31))!
    static let exampleDrawId = "00112233445566778899aabbccddeeff"
}

/// A random source that replays fixed bytes, for deterministic plans.
struct FixedRandom: RandomSource {
    let fill: UInt8
    func bytes(_ count: Int) -> [UInt8] { Array(repeating: fill, count: count) }
}
