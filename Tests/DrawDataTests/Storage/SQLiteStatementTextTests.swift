import CSQLite
@testable import DrawData
import Foundation
import Testing

/// `SQLiteStatement.withText` (issue 31): an entrant list's bytes bound in place, without
/// SQLite's copy, for one step only.
@Suite struct SQLiteStatementTextTests {
    private static func connection() throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busyTimeoutMs: 0)
        try db.execute("CREATE TABLE t (id INTEGER, body TEXT)")
        return db
    }

    @Test func theBytesAreStoredExactlyAsText() throws {
        let db = try Self.connection()
        let bytes = Array(#"[{"name":"Zoë\u0000"},"\#0"]"#.utf8) // an interior NUL is kept too
        let insert = try db.prepare("INSERT INTO t (id, body) VALUES (?1, ?2)")
        try insert.bind([.integer(1)])
        try insert.withText(bytes, at: 2) { () throws(SQLiteFailure) in try insert.run() }

        let read = try db.prepare("SELECT body, typeof(body) FROM t WHERE id = 1")
        #expect(try read.step())
        #expect(read.text(0).map { Array($0.utf8) } == bytes)
        #expect(read.text(1) == "text", "bound as text, as `bind(.text)` does: comparisons with stored lists still hold")
    }

    @Test func theBindingEndsWithTheBlock() throws {
        let db = try Self.connection()
        let insert = try db.prepare("INSERT INTO t (id, body) VALUES (?1, ?2)")
        try insert.bind([.integer(1)])
        try insert.withText(Array("first".utf8), at: 2) { () throws(SQLiteFailure) in try insert.run() }
        // Run again without binding: SQLite must not read the first buffer, which may be gone.
        try insert.bind([.integer(2)])
        try insert.run()

        let read = try db.prepare("SELECT body IS NULL FROM t WHERE id = 2")
        #expect(try read.step())
        #expect(read.int(0) == 1, "the parameter is NULL once the block is done")
    }

    @Test func aComparisonSeesTheBytes() throws {
        let db = try Self.connection()
        try db.run("INSERT INTO t (id, body) VALUES (1, 'abc')")
        let same = try db.prepare("SELECT body = ?1 FROM t WHERE id = 1")
        #expect(try same.withText(Array("abc".utf8), at: 1) { () throws(SQLiteFailure) in try same.step() ? same.int(0) : -1 } == 1)
        #expect(try same.withText(Array("abd".utf8), at: 1) { () throws(SQLiteFailure) in try same.step() ? same.int(0) : -1 } == 0)
        #expect(try same.withText([], at: 1) { () throws(SQLiteFailure) in try same.step() ? same.int(0) : -1 } == 0)
    }
}
