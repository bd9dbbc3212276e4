/// One step of the schema: the SQL that takes a database from `version - 1` to `version`.
///
/// A step that must move rows in a way SQL alone cannot (it needs Swift's decoding or checks)
/// gives `moveRows`, run after `sql` and before `sqlAfter`, in the same transaction. It answers
/// whether it moved anything, so opening knows the file has free pages worth a `VACUUM`.
struct SchemaMigration: Sendable {
    let version: Int
    let sql: String
    var moveRows: (@Sendable (SQLiteConnection) throws -> Bool)? = nil
    var sqlAfter: String = ""
}
