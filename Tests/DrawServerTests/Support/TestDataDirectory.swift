import DrawCore
import DrawData
import Foundation

/// A temporary data directory for a real `SQLiteDrawStore`, removed when the test lets go of it.
final class TestDataDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("livedraw-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }
    var databasePath: String { url.appendingPathComponent(SQLiteDrawStore.Configuration.fileName).path }

    /// Opens the store, as the executable does with `--data-dir`. A server closes the store it was
    /// given when it stops; open it again to read what it left.
    func open(busyTimeoutMs: Int = SQLiteDrawStore.Configuration.defaultBusyTimeoutMs) throws -> SQLiteDrawStore {
        try SQLiteDrawStore(configuration: .init(dataDirectory: path, busyTimeoutMs: busyTimeoutMs))
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
