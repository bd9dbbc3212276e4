@testable import DrawServer
import Testing

/// Content-Length is a peer-supplied number: nothing a client sends may trap, wrap or slip past.
@Suite struct ContentLengthTests {
    private func parse(_ values: [String], max: Int = 16_384) -> Result<Int?, HeadRejection> {
        ContentLength.parse(values.map { Array($0.utf8) }, max: max)
    }

    @Test func absentIsNil() { #expect(parse([]) == .success(nil)) }

    @Test(arguments: [("0", 0), ("17", 17), ("  42 ", 42), ("0000000000000000000000000000012", 12), ("16384", 16_384),
                      ("5, 5", 5), ("5,5,5", 5)])
    func accepts(_ text: String, _ n: Int) { #expect(parse([text]) == .success(n)) }

    @Test func identicalDuplicatesCollapse() { #expect(parse(["7", "7"]) == .success(7)) }

    @Test(arguments: ["-1", "+5", "1e3", "0x10", "", " ", "5 5", "٣", "5,", ",5", "1.0", "5\t,x"])
    func refusesWhatIsNotOneDecimal(_ text: String) {
        guard case .failure(.malformed) = parse([text]) else { Issue.record("\(text) was accepted"); return }
    }

    @Test func conflictingCopiesAre400() {
        guard case .failure(.malformed) = parse(["5", "6"]) else { Issue.record("conflict accepted"); return }
        guard case .failure(.malformed) = parse(["5, 6"]) else { Issue.record("conflict accepted"); return }
    }

    @Test(arguments: ["16385", "9223372036854775807", "9223372036854775808", "18446744073709551616",
                      String(repeating: "9", count: 4000)])
    func hugeIs413NeverATrap(_ text: String) {
        #expect(parse([text]) == .failure(.bodyTooLarge))
    }

    @Test func decimalReportsOverflowInsteadOfTrapping() {
        #expect(ContentLength.decimal(Array("9223372036854775807".utf8)[...]) == Int.max)
        #expect(ContentLength.decimal(Array("9223372036854775808".utf8)[...]) == nil)
        #expect(ContentLength.decimal(Array("99999999999999999999".utf8)[...]) == nil)
    }
}
