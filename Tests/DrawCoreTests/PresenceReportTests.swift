import DrawCore
import Testing

/// Presence summed across nodes: what one node adds to its own count from the others' reports.
struct PresenceReportTests {
    /// The board returned live reports by its clock; this node's clock does not judge them again
    /// (issue 36: a node 30 s ahead counted only its own viewers).
    @Test func othersReportsAreSummedAndItsOwnIsNotWhateverTheirExpiry() {
        let reports = [
            PresenceReport(node: "me", viewers: 7, expiresAtMs: 5_000),
            PresenceReport(node: "b", viewers: 3, expiresAtMs: 5_000),
            PresenceReport(node: "c", viewers: 4, expiresAtMs: 1_000.5),
        ]
        #expect(PresenceReport.othersTotal(reports, excluding: "me") == 7)
        #expect(PresenceReport.othersTotal([], excluding: "me") == 0)
    }

    @Test func hugeCountsSaturateInsteadOfOverflowing() {
        let reports = [PresenceReport(node: "a", viewers: .max, expiresAtMs: 10), PresenceReport(node: "b", viewers: 5, expiresAtMs: 10)]
        #expect(PresenceReport.othersTotal(reports, excluding: "me") == .max)
    }

    @Test func theStoredFormReadsBackAndAnythingElseIsIgnored() {
        let report = PresenceReport(node: "b", viewers: 12, expiresAtMs: 1_700_000_000_123.5)
        #expect(PresenceReport(node: "b", stored: report.stored) == report)
        for bad in ["", "12", "x:1", "-1:5", "1:nan", "1:2:3", "1:inf"] {
            #expect(PresenceReport(node: "b", stored: bad) == nil, "\(bad)")
        }
    }
}
