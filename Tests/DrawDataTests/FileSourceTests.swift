import DrawCore
import DrawData
import Foundation
import Testing

/// `file://` sources, as the executable uses for `defaults/`.
struct FileSourceTests {
    @Test func readsTheDefaultUsersFile() async throws {
        let body = try await Fixtures.client(maxResponseBytes: 1 << 20).get(FileURL.string(fromPath: Fixtures.usersPath))
        #expect(Array(body) == (try Fixtures.contents(Fixtures.usersPath)))
    }

    @Test func missingFileIsUnreachableNotFound() async {
        let url = FileURL.string(fromPath: Fixtures.defaultsDirectory + "/no-such-file.json")
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .unreachable(source: url, reason: "file not found or not readable"))
    }

    @Test func pathWithSpacesAndSpecialCharactersIsFound() async throws {
        let directory = NSTemporaryDirectory() + "live draw #\(UUID().uuidString) é%"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/users?.json"
        try Data("{\"items\":[]}".utf8).write(to: URL(fileURLWithPath: path))
        let body = try await Fixtures.client().get(FileURL.string(fromPath: path))
        #expect(String(decoding: body, as: UTF8.self) == "{\"items\":[]}")
    }

    @Test func fileOverTheCapIsTooLarge() async {
        let url = FileURL.string(fromPath: Fixtures.usersPath)   // a few hundred bytes
        let error = await failure { try await Fixtures.client(maxResponseBytes: 100).get(url) }
        #expect(error == .tooLarge(source: url, limitBytes: 100))
    }
}
