import Foundation
import LiveDrawCLI

/// A throwaway folder laid out like a checkout (public/, defaults/*.json), removed on deinit.
final class TempTree {
    let root: String

    init() throws {
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("live-draw-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: root + "/public", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/defaults", withIntermediateDirectories: true)
        try write("defaults/users.json", #"{"items":[]}"#)
        try write("defaults/usersInLottery.json", #"{"lotteryList":[]}"#)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Writes `text` at `relative` (folders must exist) and returns the absolute path.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        let path = root + "/" + relative
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }

    /// Paths as if the process ran in this folder, from a binary whose location is unknown.
    var paths: LaunchPaths { LaunchPaths(currentDirectory: root, executablePath: nil) }
}
