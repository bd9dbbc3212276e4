import DrawCore
import DrawPresentation

/// The blocking half of sending one owed history line (`HistoryOutbox`), on the shared store's
/// thread: the keep, and for a takeover the record it keeps, made from the shared `running`
/// record (read back whole, its list put back in by the shared store) and the escrowed seed.
/// Records are kept with their list apart (`RecordMessages.sharedRecord`, issue 44).
enum HistoryLineSend {
    /// How a send ended.
    enum Outcome: Sendable, Equatable {
        /// Acknowledged (kept, or already kept byte for byte).
        case kept
        /// The cluster recorded another end of the draw: never to be kept.
        case refused
        /// An end of a draw the room's escrow still holds: not before a fenced entry claimed it
        /// (`SharedKeepOutcome.held`).
        case held
        /// The line cannot be made (no such record, a record that does not decode, a seed that
        /// does not match): never to be kept.
        case unusable(String)
        /// A takeover's shared `running` record is not there (yet).
        case bodyMissing
        /// The shared store is away or answered an error: try again later.
        case failed(String)
    }

    static func keep(_ line: OwedHistoryLine, summary: [UInt8], body: SharedRecordBody, final: Bool,
                     in records: any SharedDrawRecords) -> Outcome {
        do throws(CoordinationError) {
            switch try records.keep(drawId: line.drawId, room: line.room, summary: summary, body: body,
                                    token: line.token, final: final) {
            case .kept: return .kept
            case .refused: return .refused
            case .held: return .held
            }
        } catch {
            return .failed(error.description)
        }
    }

    /// The takeover's line: the shared `running` record ended as `interrupted` with the seed
    /// (`DrawRecord.interrupted`), kept as the draw's end with the takeover's token.
    static func endTakeover(_ line: OwedHistoryLine, in records: any SharedDrawRecords) -> Outcome {
        guard let end = line.takeover else { return .unusable("not a takeover") }
        guard let seed = Seed(hex: end.seedHex) else { return .unusable("the escrowed seed is not 64 hex characters") }
        let shared: [UInt8]?
        do throws(CoordinationError) { shared = try records.body(drawId: line.drawId) } catch { return .failed(error.description) }
        guard let shared else { return .bodyMissing }
        guard let record = RecordBodyDecoder.decode(shared) else { return .unusable("the shared record does not decode") }
        if record.status.isEnded {
            // Already ended in the shared history: by this same end (a retry after a lost answer,
            // or the dead node's own reconciled record, which reveals the same seed), or another.
            return record.status == .interrupted && record.seed == seed ? .kept : .refused
        }
        guard let ended = record.interrupted(finishedAt: end.endedAt, seed: seed, roundsShown: end.roundsShown) else {
            return .unusable("the escrowed seed or rounds shown do not match the shared record")
        }
        return keep(line, summary: RecordMessages.summary(DrawSummary(record: ended)), body: RecordMessages.sharedRecord(ended),
                    final: true, in: records)
    }
}
