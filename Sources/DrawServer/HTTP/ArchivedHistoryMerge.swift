import DrawCore

/// A page of a room's history from two places (issue 44): the lines Redis still keeps and those
/// this node archived after Redis let them go. Both are ordered by the draw's place in the
/// cluster's one history sequence, so the page is their union by position, newest first; a line
/// in both is Redis' (the same draw, kept by the same write).
enum ArchivedHistoryMerge {
    /// `shared`: Redis' page (up to `limit` lines, `next` set when it has more); `archived`: up
    /// to `limit + 1` archived lines below the same cursor.
    static func merge(_ shared: SharedDrawPage, archived: [(position: Int64, summary: [UInt8])], limit: Int) -> SharedDrawPage {
        guard !archived.isEmpty else { return shared }
        // A page without positions (not one Redis' read made) cannot be merged: it stands alone.
        guard shared.positions.count == shared.summaries.count else { return shared }
        var byPosition: [Int64: [UInt8]] = [:]
        for line in archived { byPosition[line.position] = line.summary }
        for (position, summary) in zip(shared.positions, shared.summaries) { byPosition[position] = summary }
        let ordered = byPosition.keys.sorted(by: >)
        let shown = Array(ordered.prefix(limit))
        // More follow when the union holds more than a page, or Redis said it has more past its
        // own page (whose lines are all older than the last shown, or among them).
        let more = ordered.count > limit || shared.next != nil
        return SharedDrawPage(summaries: shown.compactMap { byPosition[$0] }, positions: shown,
                              next: more ? shown.last.flatMap { DrawCursor(position: $0) } : nil,
                              roomHasDraws: true)
    }
}
