/// Why no draw could be planned.
public enum DrawError: Error, Sendable, Hashable {
    /// After merging, nobody is left to draw from. The merge warnings usually say why.
    case noPlayers(warnings: [MergeWarning])
    /// One of the two player lists could not be loaded.
    case source(DataSourceError)
    /// The plan could not be recorded (`DrawRecordStore.insertStarted` failed), so it was not
    /// published: a commitment whose seed might not survive a crash is never shown. The cause
    /// (a `StorageError`, naming the database file) goes to the server log, not to viewers.
    case storageFailure
    /// The room asks for more winners than its list has entrants (slots are without replacement).
    case tooFewEntrants(entrants: Int, winners: Int)
    /// Cluster mode: the node that was loading the draw's lists stopped (its lease lapsed) before
    /// it planned anything; another node says so, so viewers everywhere stop waiting.
    case nodeLost
    /// The beacon's chain cannot name a round for this draw (the clock is outside the chain's
    /// range). A draw whose round was named but not fetched is `aborted` with
    /// `DrawSession.beaconUnavailableReason` instead: its commitment was already public.
    case beaconUnavailable

    /// A stable machine-readable code, sent in `failed` messages.
    public var code: String {
        switch self {
        case .noPlayers: return "no_players"
        case .source(let e): return e.code
        case .storageFailure: return "storage_failure"
        case .tooFewEntrants: return "too_few_entrants"
        case .nodeLost: return "node_lost"
        case .beaconUnavailable: return "beacon_unavailable"
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .noPlayers(let warnings):
            let why = warnings.isEmpty ? "" : " (\(warnings.count) merge warning\(warnings.count == 1 ? "" : "s"))"
            return "No players are left after merging the user list with the lottery list\(why)."
        case .source(let e): return e.message
        case .storageFailure:
            return "The draw could not be recorded, so it was not started. Try again; if it keeps failing, "
                + "the operator should check the server log."
        case .tooFewEntrants(let entrants, let winners):
            return "The room's settings ask for \(winners) winners, but the list has only \(entrants) "
                + "entrant\(entrants == 1 ? "" : "s"); lower winners or add entrants."
        case .nodeLost:
            return "The server that was preparing this draw stopped before it began; nothing was drawn. Start it again."
        case .beaconUnavailable:
            return "The randomness beacon cannot name a round for this draw; nothing was drawn. The operator should "
                + "check the server's clock and --beacon-url."
        }
    }

    /// Warnings gathered before the failure, for the record and the host.
    public var warnings: [MergeWarning] {
        if case .noPlayers(let w) = self { return w }
        return []
    }
}
