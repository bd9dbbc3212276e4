@testable import DrawData
import Testing

struct URLPolicyTests {
    @Test(arguments: ["http://h/x", "https://h/x", "file:///x", "HTTP://h/x", "HttpS://h/x"])
    func allowedSchemesInAnyCase(url: String) {
        #expect(URLPolicy.isFetchable(url))
    }

    @Test(arguments: ["ftp://h/x", "gopher://h/", "h/x", "http:x", "1http://h", "https://h/ x", "http://h/\t", "://h"])
    func everythingElseIsRefused(url: String) {
        #expect(!URLPolicy.isFetchable(url))
    }

    @Test func credentialsAreRedacted() {
        #expect(URLPolicy.redacted("https://u:p@h:8/x?y=@z") == "https://***@h:8/x?y=@z")
        #expect(URLPolicy.redacted("https://h/x@y") == "https://h/x@y")
        #expect(URLPolicy.redacted("file:///x") == "file:///x")
    }
}
