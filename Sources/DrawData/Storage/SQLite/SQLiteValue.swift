/// A value bound to a statement parameter. Optional Swift values bind as `NULL`.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    static func int(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    static func string(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
}
