import DrawData
import Foundation
import Testing

struct FileURLTests {
    @Test func absolutePathIsPercentEncoded() {
        #expect(FileURL.string(fromPath: "/srv/live draw/users#1?.json") == "file:///srv/live%20draw/users%231%3F.json")
        #expect(FileURL.string(fromPath: "/data/é%.json") == "file:///data/%C3%A9%25.json")
    }

    @Test func dotsAndRepeatedSlashesAreResolved() {
        #expect(FileURL.string(fromPath: "/a/./b//../c.json") == "file:///a/c.json")
        #expect(FileURL.string(fromPath: "/../x") == "file:///x")
    }

    @Test func relativePathIsResolvedAgainstTheCurrentDirectory() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileURL.string(fromPath: "defaults/users.json")
                == FileURL.string(fromPath: cwd + "/defaults/users.json"))
    }
}
