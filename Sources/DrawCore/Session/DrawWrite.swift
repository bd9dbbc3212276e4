/// One write a `DrawSession` asks of the draw store (`DrawEffect.write`). The server runs it on
/// its storage thread and feeds the result back (`DrawInput.written`), so the session can carry
/// on — or abort — knowing whether it is durable.
public enum DrawWrite: Sendable, Hashable {
    /// The plan, before `started` is broadcast.
    case started(NewDrawRecord)
    /// When `started` actually went out, right after its fan-out.
    case startedAt(drawId: String, startedAt: Double)
    /// A round, after its fan-out, with the `sentAt` the wire carried.
    case round(drawId: String, round: Int, sentAt: Double)
    /// The end: `finished` before the result is broadcast; `aborted` as the abort is broadcast.
    /// With the draw's seed, which an abort the store cannot take yet is served with meanwhile
    /// (the server's `RecoveringDrawStore`).
    case finish(drawId: String, ending: DrawEnding, finishedAt: Double, seed: Seed)
    /// A draw that failed before it was planned.
    case failed(FailedDrawRecord)
    /// A beacon draw's round was fetched: its randomness and signature, and the picks they give
    /// (`plan` is resolved), before round 1 is shown.
    case beacon(DrawPlan)

    public var drawId: String {
        switch self {
        case .started(let r): return r.drawId
        case .startedAt(let id, _), .round(let id, _, _), .finish(let id, _, _, _): return id
        case .failed(let r): return r.drawId
        case .beacon(let plan): return plan.drawId
        }
    }

    /// A short name for logs and the `livedraw_storage_failures_total` label.
    public var operation: String {
        switch self {
        case .started: return "start"
        case .startedAt: return "started_at"
        case .round: return "round"
        case .finish(_, .finished, _, _): return "finish"
        case .finish(_, .aborted, _, _): return "abort"
        case .failed: return "fail"
        case .beacon: return "beacon"
        }
    }
}
