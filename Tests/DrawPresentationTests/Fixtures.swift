import DrawCore
import Foundation

/// Shared inputs: the FAIRNESS.md worked example, so message contents can be checked by value.
enum Fixtures {
    static let players: [Player] = [
        Player(userId: 10, name: "Jack Alexy", username: "JAlex", regDate: CalendarDate(iso: "2020-10-19")!, isVoid: false),
        Player(userId: 22, name: "Mr. Hashemi", username: "Hashaaa", regDate: CalendarDate(iso: "2019-08-19")!, isVoid: false),
        Player(userId: 4, name: "Mack", username: "mackMack13", regDate: CalendarDate(iso: "2018-10-02")!, isVoid: false),
        Player(userId: 182, name: "Mohsen", username: "AghaMohsen", regDate: CalendarDate(iso: "2020-04-12")!, isVoid: true),
    ]
    static let seed = Seed(bytes: Array(0...31))!
    static let plan = DrawPlan.make(drawId: "00112233445566778899aabbccddeeff", entrants: players,
                                    warnings: [.unknownUser(userId: 999)], seed: seed, schedule: .original)
    static let voidPlan = DrawPlan.make(drawId: "00112233445566778899aabbccddeeff", entrants: players,
                                        seed: Seed(bytes: Array(repeating: 9, count: 32))!, schedule: .original)

    /// Parses a message as a JSON object, failing loudly when it is not one.
    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        let any = try JSONSerialization.jsonObject(with: Data(bytes))
        guard let dict = any as? [String: Any] else { throw CocoaError(.coderInvalidValue) }
        return dict
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
