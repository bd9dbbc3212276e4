import DrawCore
import Foundation

/// Turns a lottery document (`LotteryListDTO`) into Core `LotteryEntry`s, keeping their order.
enum LotteryListMapper {
    /// - Throws: `malformedJSON` / `invalidData` from decoding.
    static func entries(from body: Data, source: String) throws(DataSourceError) -> [LotteryEntry] {
        let document = try JSONBody.decode(LotteryListDTO.self, from: body, source: source)
        return document.lotteryList.map { LotteryEntry(userId: $0.userId.value, isVoid: $0.isVoid) }
    }
}
