import DrawCore

/// One write a room's `DrawRunner` asks of the draw store. It travels to the storage thread,
/// runs there, and comes back with its result (`ServiceCommand.recorded`), so the runner can
/// carry on — or abort — on the service thread.
enum DrawWrite: Sendable {
    /// The plan, before `started` is broadcast.
    case started(NewDrawRecord)
    /// When `started` actually went out, right after its fan-out.
    case startedAt(drawId: String, startedAt: Double)
    /// A round, after its fan-out, with the `sentAt` the wire carried.
    case round(drawId: String, round: Int, sentAt: Double)
    /// The end: `finished` before the result is broadcast; `aborted` as the abort is broadcast.
    /// With the draw's seed, which an abort the store cannot take yet is served with meanwhile
    /// (`RecoveringDrawStore`).
    case finish(drawId: String, ending: DrawEnding, finishedAt: Double, seed: Seed)
    /// A draw that failed before it was planned.
    case failed(FailedDrawRecord)

    var drawId: String {
        switch self {
        case .started(let r): return r.drawId
        case .startedAt(let id, _), .round(let id, _, _), .finish(let id, _, _, _): return id
        case .failed(let r): return r.drawId
        }
    }

    /// A short name for logs and the `livedraw_storage_failures_total` label.
    var operation: String {
        switch self {
        case .started: return "start"
        case .startedAt: return "started_at"
        case .round: return "round"
        case .finish(_, .finished, _, _): return "finish"
        case .finish(_, .aborted, _, _): return "abort"
        case .failed: return "fail"
        }
    }

    /// Runs the write. Storage thread only: it blocks on the disk.
    func apply(to store: RecoveringDrawStore) throws(StorageError) {
        switch self {
        case .started(let record):
            try store.insertStarted(record)
        case .startedAt(let drawId, let startedAt):
            try store.stampStarted(drawId: drawId, startedAt: startedAt)
        case .round(let drawId, let round, let sentAt):
            try store.recordRound(drawId: drawId, round: round, sentAt: sentAt)
        case .finish(let drawId, let ending, let finishedAt, let seed):
            try store.end(drawId: drawId, ending: ending, finishedAt: finishedAt, seed: seed)
        case .failed(let record):
            try store.insertFailed(record)
        }
    }
}
