import DrawCore

/// How a `DrawWrite` (decided by the pure `DrawSession`) is carried out on the store.
extension DrawWrite {
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
        case .beacon(let plan):
            try store.recordBeacon(plan)
        }
    }
}
