import DrawCore
import DrawPresentation
import Logging

/// What a history request asks of the stores, decided on the service thread: an answer known at
/// once, or a read to run on the thread of the store it reads (which also encodes the JSON), which
/// answers, or asks for a read of the other store (a draw this node did not record: the cluster's
/// shared history, read where Redis is read, never on the SQLite thread).
enum HistoryAnswer {
    case now(HTTPResponse)
    case read(ServerStorage.Reads, @Sendable () -> HistoryAnswer)
}

/// The history endpoints (docs/PROTOCOL.md §5): `GET /api/rooms/ROOM/draws`, `GET /api/draws/ID`
/// and `GET /api/draws/ID/entrants`. Each request is checked here and turned into a read of the
/// draw store (or, in cluster mode, of the cluster's shared history), which `HTTPAnswers` runs on the
/// storage thread and answers with; no socket is needed to test what a request reads and answers.
///
/// Why reads share the writes' serial thread (rather than a second, read-only connection): a read
/// then sees exactly the writes submitted before it, and its answer is posted after theirs. So a
/// record can only show a seed once the service thread has handled the `finish` write that
/// revealed it — and published `finished` — first. A second connection could read the committed
/// `finished` row before the broadcast. Reads are rare and take microseconds next to a draw's
/// writes, so they cost the draws nothing noticeable.
final class HistoryReads {
    /// The draw store; `nil`: no history (404).
    private let store: RecoveringDrawStore?
    /// The room store, for rooms kept without draws.
    private let rooms: CheckedRoomStore?
    /// The cluster's shared history; `nil` for one node.
    private let shared: (any SharedDrawRecords)?
    /// This node's copy of the draws the cluster ended (issue 44), read once `shared` let one go;
    /// on the draw store's thread.
    private let archive: (any DrawArchive)?
    /// Recent draws' entrant lists, encoded once.
    private let entrantLists: EntrantLists
    private let logger: Logger

    init(store: RecoveringDrawStore?, rooms: CheckedRoomStore?, shared: (any SharedDrawRecords)?,
         archive: (any DrawArchive)? = nil, entrantLists: EntrantLists, logger: Logger) {
        self.store = store
        self.rooms = rooms
        self.shared = shared
        self.archive = archive
        self.entrantLists = entrantLists
        self.logger = logger
    }

    /// The first page of one draw: enough to tell whether a room has any history at all.
    private static let probePage: DrawPageRequest = {
        do { return try DrawPageRequest(limit: 1) } catch { preconditionFailure("1 is within DrawPageRequest.limitRange") }
    }()

    /// `GET /api/rooms/ROOM/draws?limit=N&cursor=C`. A room that is not in memory is still served
    /// when the store keeps it or has draws of it (a deleted or expired room's history stays); 404
    /// only for a room that is neither. `live`: the room is in memory.
    func historyPage(room name: String, query: [String: String], live: Bool) -> HistoryAnswer {
        guard RoomName.isValid(name) else { return .now(.json(404, APIMessages.error(.unknownRoom))) }
        guard let store else { return .now(Self.noHistory) }
        let request: DrawPageRequest
        do {
            request = try DrawPageRequest.parse(limit: query["limit"], cursor: query["cursor"])
        } catch {
            let code = ClientErrorCode(error)
            return .now(.json(code.httpStatus, APIMessages.error(code, message: error.message)))
        }
        let logger = self.logger, kept = rooms
        if let shared {
            return sharedHistoryPage(room: name, request: request, live: live, shared: shared, archive: archive)
        }
        return .read(.draws) {
            do throws(StorageError) {
                let page = try store.list(room: name, page: request)
                let found = HistoryAnswer.now(.json(200, RecordMessages.history(room: name, page: page)))
                guard page.draws.isEmpty && !live else { return found }
                // An empty page past a recorded room's last draw is still that room's.
                if request.after != nil, !(try store.list(room: name, page: Self.probePage)).draws.isEmpty { return found }
                // A room kept in the room store but not in memory is a room, draws or not.
                return Self.ifKept(name, in: kept, logger: logger, then: found)
            } catch {
                logger.error("could not read the draw history", metadata: ["room": "\(name)", "error": "\(error)"])
                return .now(.json(503, APIMessages.error(.storageUnavailable)))
            }
        }
    }

    /// `found` when the room store keeps `name`, else `404 unknown_room`; read where the room
    /// store is read.
    private static func ifKept(_ name: String, in kept: CheckedRoomStore?, logger: Logger,
                               then found: HistoryAnswer) -> HistoryAnswer {
        guard let kept else { return .now(.json(404, APIMessages.error(.unknownRoom))) }
        return .read(.shared) {
            do throws(StorageError) {
                return try kept.room(named: name) == nil ? .now(.json(404, APIMessages.error(.unknownRoom))) : found
            } catch {
                logger.warning("could not look up a room", metadata: ["room": "\(name)", "error": "\(error)"])
                return .now(.json(503, APIMessages.error(.storageUnavailable)))
            }
        }
    }

    /// `GET /api/draws/ID`: the record, with `verified` for an ended draw. A malformed id is a 404
    /// without a look at the store.
    ///
    /// Cluster mode reads the shared history first, so every node answers the one recorded end
    /// (issue 27: a node whose draw the cluster ended by a takeover holds its own `aborted` record,
    /// while the history says `interrupted`). This node's own record answers when the shared
    /// history has none yet (its line is on its way) or Redis is out of reach; before it, this
    /// node's archive of the cluster's ended draws (issue 44: Redis let the draw go, or is away).
    func drawRecord(id: String) -> HistoryAnswer {
        guard DrawIdentifier.isValid(id) else { return .now(.json(404, APIMessages.error(.unknownDraw))) }
        guard let store else { return .now(Self.noHistory) }
        let logger = self.logger, archive = self.archive
        let local = { @Sendable (sharedFailed: Bool) -> HistoryAnswer in
            .read(.draws) {
                do throws(StorageError) {
                    if let body = try archive?.archivedBody(drawId: id) { return .now(.json(200, body)) }
                    if let record = try store.record(id: id) { return .now(.json(200, RecordMessages.record(record))) }
                } catch {
                    logger.error("could not read a draw record", metadata: ["drawId": "\(id)", "error": "\(error)"])
                    return .now(.json(503, APIMessages.error(.storageUnavailable)))
                }
                // Redis out of reach is not "no such draw": say so, rather than a 404 a client
                // would take as final.
                return .now(.json(sharedFailed ? 503 : 404, APIMessages.error(sharedFailed ? .clusterUnavailable : .unknownDraw)))
            }
        }
        guard let shared else { return local(false) }
        return .read(.shared) {
            do throws(CoordinationError) {
                if let body = try shared.body(drawId: id) { return .now(.json(200, body)) }
            } catch {
                return local(true)
            }
            return local(false)
        }
    }

    /// Without a store there is no history to serve.
    static let noHistory = HTTPResponse.json(404, APIMessages.error(
        .notFound, message: "This server keeps no draw history (it was started without a data directory)."))

    private func sharedHistoryPage(room name: String, request: DrawPageRequest, live: Bool,
                                   shared: any SharedDrawRecords, archive: (any DrawArchive)?) -> HistoryAnswer {
        let logger = self.logger, kept = rooms
        return .read(.shared) {
            let page: SharedDrawPage
            do throws(CoordinationError) {
                page = try shared.page(room: name, request: request)
            } catch {
                // Out of reach is not "no history": a 404 would read as final.
                logger.warning("could not read the shared draw history", metadata: ["room": "\(name)", "error": "\(error)"])
                return .now(.json(503, APIMessages.error(.clusterUnavailable)))
            }
            guard let archive else { return Self.answerSharedPage(page, room: name, live: live, kept: kept, logger: logger) }
            // Lines Redis let go (issue 44) are in this node's archive: the page is both, merged
            // by their place in the cluster's history.
            return .read(.draws) {
                let archived: [(position: Int64, summary: [UInt8])]
                do throws(StorageError) {
                    archived = try archive.archivedLines(room: name, before: request.after?.position, limit: request.limit + 1)
                } catch {
                    logger.error("could not read the archived draw history", metadata: ["room": "\(name)", "error": "\(error)"])
                    return .now(.json(503, APIMessages.error(.storageUnavailable)))
                }
                return Self.answerSharedPage(ArchivedHistoryMerge.merge(page, archived: archived, limit: request.limit),
                                             room: name, live: live, kept: kept, logger: logger)
            }
        }
    }

    /// The answer for a page of the cluster's history; an empty one of a room neither in memory
    /// nor with any draw is a 404 unless the registry keeps the room. On the shared store's
    /// thread, or (after the archive was read) the draw store's: the registry read is Redis'.
    private static func answerSharedPage(_ page: SharedDrawPage, room name: String, live: Bool, kept: CheckedRoomStore?,
                                         logger: Logger) -> HistoryAnswer {
        let found = HistoryAnswer.now(.json(200, RecordMessages.history(room: name, summaries: page.summaries, next: page.next)))
        guard page.summaries.isEmpty && !live && !page.roomHasDraws else { return found }
        return .read(.shared) {
            // A room kept in the registry but not in this node's memory is a room, draws or not.
            do throws(StorageError) {
                if try kept?.room(named: name) == nil { return .now(.json(404, APIMessages.error(.unknownRoom))) }
            } catch {
                logger.warning("could not look up a room", metadata: ["room": "\(name)", "error": "\(error)"])
                return .now(.json(503, APIMessages.error(.clusterUnavailable)))
            }
            return found
        }
    }

    /// `GET /api/draws/ID/entrants` (docs/PROTOCOL.md §5.6): fixed for the draw, so cacheable
    /// for good.
    static let entrantsCacheControl = "public, max-age=31536000, immutable"

    /// From memory when the draw is recent (running here, or another node's started event came
    /// in), else from the store on the storage thread, else (cluster mode) from Redis.
    func drawEntrants(id: String, ifNoneMatch: String?) -> HistoryAnswer {
        guard DrawIdentifier.isValid(id) else { return .now(.json(404, APIMessages.error(.unknownDraw))) }
        let lists = entrantLists
        if let list = lists.list(drawId: id) { return .now(Self.entrantsResponse(list, ifNoneMatch: ifNoneMatch)) }
        let store = self.store, shared = self.shared, logger = self.logger, archive = self.archive
        guard store != nil || shared != nil else { return .now(.json(404, APIMessages.error(.unknownDraw))) }
        let fromShared = Self.sharedEntrants(id: id, in: shared, lists: lists, ifNoneMatch: ifNoneMatch)
        guard let store else { return fromShared }
        return .read(.draws) {
            do throws(StorageError) {
                if let record = try store.record(id: id) {
                    guard let hash = record.entrantsHash, !record.entrants.isEmpty else { return .now(Self.noEntrants) }
                    let list = lists.list(drawId: id, hash: hash, players: record.entrants)
                    return .now(Self.entrantsResponse(list, ifNoneMatch: ifNoneMatch))
                }
                // A draw of another node that Redis let go: this node's archived copy.
                if let kept = try archive?.archivedEntrants(drawId: id) {
                    return .now(Self.entrantsResponse(EntrantList(hash: kept.hash, json: kept.json), ifNoneMatch: ifNoneMatch))
                }
            } catch {
                logger.error("could not read a draw record", metadata: ["drawId": "\(id)", "error": "\(error)"])
                return .now(.json(503, APIMessages.error(.storageUnavailable)))
            }
            return fromShared
        }
    }

    /// Cluster mode: another node ran the draw (or runs it). Redis out of reach is not "no such
    /// draw": say so, rather than a 404 a client would take as final.
    private static func sharedEntrants(id: String, in shared: (any SharedDrawRecords)?, lists: EntrantLists,
                                       ifNoneMatch: String?) -> HistoryAnswer {
        guard let shared else { return .now(.json(404, APIMessages.error(.unknownDraw))) }
        return .read(.shared) {
            do throws(CoordinationError) {
                if let found = try shared.entrants(drawId: id) {
                    let list = EntrantList(hash: found.hash, json: found.json)
                    lists.keep(list, drawId: id)
                    return .now(Self.entrantsResponse(list, ifNoneMatch: ifNoneMatch))
                }
            } catch {
                return .now(.json(503, APIMessages.error(.clusterUnavailable)))
            }
            return .now(.json(404, APIMessages.error(.unknownDraw)))
        }
    }

    /// The list, or `304` when the client's `If-None-Match` names it.
    static func entrantsResponse(_ list: EntrantList, ifNoneMatch: String?) -> HTTPResponse {
        let etag = "etag: \(list.etag)\r\n"
        if StaticFileValidator.matches(ifNoneMatch: ifNoneMatch, etag: list.etag) {
            var r = HTTPResponse(status: 304, contentType: "application/json", body: [])
            r.cache = (control: entrantsCacheControl, lines: etag + "cache-control: \(entrantsCacheControl)\r\n")
            return r
        }
        var r = HTTPResponse.json(200, list.json)
        r.cache = (control: entrantsCacheControl, lines: etag)
        return r
    }

    /// A draw that failed before it had a plan has no entrants to serve.
    private static let noEntrants = HTTPResponse.json(404, APIMessages.error(
        .unknownDraw, message: "This draw has no entrants: it failed before it was planned."))
}
