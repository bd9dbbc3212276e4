/// An exceeded limit: its `EntrantListLimits` property name and its value.
public struct EntrantListLimitViolation: Sendable, Hashable {
    public let name: String
    public let value: Int

    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}
