/// One line of the lottery list: who takes part, and whether drawing them means "no winner".
public struct LotteryEntry: Sendable, Hashable {
    public let userId: Int
    /// A void entry can be drawn, but then the draw has no winner.
    public let isVoid: Bool

    public init(userId: Int, isVoid: Bool) {
        self.userId = userId
        self.isVoid = isVoid
    }
}
