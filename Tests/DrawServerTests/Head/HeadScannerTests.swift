@testable import DrawServer
import Testing

@Suite struct HeadScannerTests {
    private func scan(_ parts: [String], limits: RequestLimits = RequestLimits()) -> HeadScanner.Progress {
        var scanner = HeadScanner(limits: limits)
        var buffer: [UInt8] = []
        var last = HeadScanner.Progress.incomplete
        for p in parts {
            buffer += Array(p.utf8)
            last = scanner.scan(buffer)
        }
        return last
    }

    @Test func findsTheEndAcrossPieces() {
        let head = "GET / HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(scan([head]) == .complete(start: 0, end: head.utf8.count))
        // Split at every byte, including inside the final CRLF CRLF.
        let pieces = head.map { String($0) }
        #expect(scan(pieces) == .complete(start: 0, end: head.utf8.count))
        #expect(scan(["GET / HTTP/1.1\r\nHost: a\r\n\r"]) == .incomplete)
    }

    @Test func bytesAfterTheHeadAreNotPartOfIt() {
        #expect(scan(["POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}"]) == .complete(start: 0, end: 38))
    }

    @Test func leadingEmptyLinesAreSkipped() {
        #expect(scan(["\r\n\r\nGET / HTTP/1.1\r\n\r\n"]) == .complete(start: 4, end: 22))
    }

    @Test(arguments: ["GET / HTTP/1.1\nHost: a\n\n", "GET / HTTP/1.1\r\nHost: a\n\r\n", "\n"])
    func bareLineFeedIs400(_ text: String) {
        guard case .rejected(.malformed) = scan([text]) else { Issue.record("accepted \(text.debugDescription)"); return }
    }

    @Test func aRequestLinePastTheTargetLimitIs414BeforeItEnds() {
        let limits = RequestLimits()
        let edge = String(repeating: "a", count: limits.maxTargetBytes + HeadScanner.requestLineSlack)
        #expect(scan([edge]) == .incomplete)
        #expect(scan([edge + "a"]) == .rejected(.targetTooLong))
    }

    @Test func aHeadPastTheSizeLimitIs431BeforeItEnds() {
        let limits = RequestLimits()
        let big = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "b", count: limits.maxHeadBytes)
        #expect(scan([big]) == .rejected(.headersTooLarge))
        // Complete but too large.
        var small = limits
        small.maxHeadBytes = 30
        #expect(scan(["GET / HTTP/1.1\r\nHost: abcdefgh\r\n\r\n"], limits: small) == .rejected(.headersTooLarge))
    }

    @Test func tooManyHeaderLinesIs431() {
        let limits = RequestLimits()
        let lines = (0...limits.maxHeaderFields).map { "X-\($0): v\r\n" }.joined()
        #expect(scan(["GET / HTTP/1.1\r\n" + lines]) == .rejected(.headersTooLarge))
        let fewer = (1..<limits.maxHeaderFields).map { "X-\($0): v\r\n" }.joined()
        guard case .complete = scan(["GET / HTTP/1.1\r\nHost: a\r\n" + fewer + "\r\n"]) else {
            Issue.record("the limit itself must pass"); return
        }
    }

    @Test func aVerdictIsFinal() {
        var scanner = HeadScanner(limits: RequestLimits())
        let bad = Array("GET / HTTP/1.1\n".utf8)
        #expect(scanner.scan(bad) == .rejected(.malformed("line ends must be CRLF")))
        #expect(scanner.scan(bad + Array("\r\n\r\n".utf8)) == .rejected(.malformed("line ends must be CRLF")))
    }
}
