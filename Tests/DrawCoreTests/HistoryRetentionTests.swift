import DrawCore
import Testing

/// The shared history's retention (issue 44) never holds a window or a cap a store cannot use:
/// every value past a bound is taken at the bound, none traps.
struct HistoryRetentionTests {
    static let low = HistoryRetention.windowRange.lowerBound, high = HistoryRetention.windowRange.upperBound
    static let windows: [(asked: Int64, kept: Int64)] = [
        (Int64.min, low), (-1, low), (0, low), (999, low), (1_000, 1_000), (86_400_000, 86_400_000),
        (high + 1, high), (Int64.max, high),
    ]
    static let caps: [(asked: Int, kept: Int)] = [(Int.min, 1), (0, 1), (1, 1), (1_000, 1_000), (1_000_001, 1_000_000), (Int.max, 1_000_000)]

    @Test(arguments: windows)
    func windowsPastTheirBoundsAreTakenAtTheBound(window: (asked: Int64, kept: Int64)) {
        #expect(HistoryRetention(windowMs: window.asked, perRoom: 10).windowMs == window.kept)
    }

    @Test(arguments: caps)
    func capsPastTheirBoundsAreTakenAtTheBound(cap: (asked: Int, kept: Int)) {
        #expect(HistoryRetention(windowMs: 60_000, perRoom: cap.asked).perRoom == cap.kept)
    }
}
