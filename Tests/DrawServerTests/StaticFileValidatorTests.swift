@testable import DrawServer
import Testing

@Suite struct StaticFileValidatorTests {
    let validator = StaticFileValidator(size: 3569, seconds: 1_732_262_400, nanoseconds: 5)

    @Test func tagsSizeAndModificationTime() {
        #expect(validator.etag == "\"df1-67403a00.5\"")
        #expect(validator.lastModified == "Fri, 22 Nov 2024 08:00:00 GMT")
        #expect(StaticFileValidator(size: 3569, seconds: 1_732_262_400, nanoseconds: 6).etag != validator.etag)
        #expect(validator.headerLines.hasSuffix("cache-control: no-cache\r\n"))
    }

    @Test(arguments: ["\"df1-67403a00.5\"", "W/\"df1-67403a00.5\"", "\"x\", \"df1-67403a00.5\"", " * "])
    func matches(_ header: String) { #expect(validator.matches(ifNoneMatch: header)) }

    @Test(arguments: [nil, "", "\"df1-67403a00.6\"", "df1-67403a00.5", "\"x\""] as [String?])
    func doesNotMatch(_ header: String?) { #expect(!validator.matches(ifNoneMatch: header)) }
}

@Suite struct SecurityHeadersTests {
    /// lws' own set by default; listed origins replace `'none'` and drop X-Frame-Options.
    @Test func frameAncestorsOnlyForListedOrigins() {
        #expect(SecurityHeaders.lwsDefault.contains("frame-ancestors 'none';"))
        #expect(SecurityHeaders.lwsDefault.contains("x-frame-options: deny\r\n"))
        let listed = SecurityHeaders.lines(frameAncestors: ["https://a.example", "http://b.example:8080"])
        #expect(listed.contains("frame-ancestors https://a.example http://b.example:8080;"))
        #expect(!listed.contains("x-frame-options") && listed.contains("default-src 'none'"))
    }
}
