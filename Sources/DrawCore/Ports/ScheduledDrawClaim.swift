/// What a claim of a scheduled draw at its time got (`ScheduledDrawStore.claimDue`).
public enum ScheduledDrawClaim: Sendable, Hashable {
    /// This caller took it: it alone starts (or records) the draw.
    case taken(ScheduledDraw)
    /// Taken already (by another node, or cancelled), or never kept.
    case gone
    /// Its time has not come by the store's clock: still waiting, due in this many ms. A node
    /// whose clock runs ahead asks early (issue 36); the store's clock decides, not the node's.
    case early(inMs: Double)
    /// Another node claimed it and has not started it yet: it may still (its claim is a lease),
    /// so this one asks again once that lease ends, in this many ms. A node killed between its
    /// claim and its draw's start leaves a lease that ends, not a draw that is lost.
    case held(inMs: Double)
}
