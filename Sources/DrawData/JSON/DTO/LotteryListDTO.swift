/// The lottery document exactly as the seed app serves it:
/// `{"lotteryList":[{"userId":10,"void":false}, ...]}`. Fields not listed here are ignored.
struct LotteryListDTO: Decodable {
    let lotteryList: [LotteryEntryDTO]
}

/// One element of `lotteryList`.
struct LotteryEntryDTO: Decodable {
    let userId: JSONInteger
    let isVoid: Bool

    private enum CodingKeys: String, CodingKey {
        case userId
        case isVoid = "void"
    }
}
