import DrawCore
import DrawPresentation
import DrawTransport

/// The history endpoints (docs/PROTOCOL.md §5): `GET /api/rooms/ROOM/draws` and
/// `GET /api/draws/ID`. Requests are checked on the service thread; the store is read on the
/// storage thread, which also encodes the JSON, and the response comes back through the inbox.
///
/// Why reads share the writes' serial thread (rather than a second, read-only connection): a read
/// then sees exactly the writes submitted before it, and its answer is posted after theirs. So a
/// record can only show a seed once the service thread has handled the `finish` write that
/// revealed it — and published `finished` — first. A second connection could read the committed
/// `finished` row before the broadcast. Reads are rare and take microseconds next to a draw's
/// writes, so they cost the draws nothing noticeable.
extension HTTPAPI {
    /// The first page of one draw: enough to tell whether a room has any history at all.
    private static let probePage: DrawPageRequest = {
        do { return try DrawPageRequest(limit: 1) } catch { preconditionFailure("1 is within DrawPageRequest.limitRange") }
    }()

    /// `GET /api/rooms/ROOM/draws?limit=N&cursor=C`. A room that is not in memory is still served
    /// when the store keeps it or has draws of it (a deleted or expired room's history stays); 404
    /// only for a room that is neither.
    func historyPage(room name: String, query: [String: String], _ exchange: HTTPExchange,
                     _ wsi: Connection) -> HTTPResponse? {
        guard RoomName.isValid(name) else { return .json(404, APIMessages.error(.unknownRoom)) }
        guard let store = storage.store else { return Self.noHistory }
        let request: DrawPageRequest
        do {
            request = try DrawPageRequest.parse(limit: query["limit"], cursor: query["cursor"])
        } catch {
            let code = ClientErrorCode(error)
            return .json(code.httpStatus, APIMessages.error(code, message: error.message))
        }
        let live = rooms.registry[name] != nil, logger = self.logger, kept = storage.rooms
        if let shared = rooms.cluster?.services.records {
            return sharedHistoryPage(room: name, request: request, live: live, shared: shared, exchange, wsi)
        }
        return answerFromStorage(exchange, wsi) {
            do throws(StorageError) {
                let page = try store.list(room: name, page: request)
                // A room kept in the store but not in memory is a room, draws or not.
                let isKept = page.draws.isEmpty && !live ? try kept?.room(named: name) != nil : false
                if page.draws.isEmpty && !live && !isKept {
                    // An empty page past a recorded room's last draw is still that room's.
                    var known = false
                    if request.after != nil { known = !(try store.list(room: name, page: Self.probePage)).draws.isEmpty }
                    if !known { return .json(404, APIMessages.error(.unknownRoom)) }
                }
                return .json(200, RecordMessages.history(room: name, page: page))
            } catch {
                logger.error("could not read the draw history", metadata: ["room": "\(name)", "error": "\(error)"])
                return .json(503, APIMessages.error(.storageUnavailable))
            }
        }
    }

    /// `GET /api/draws/ID`: the record, with `verified` for an ended draw. A malformed id is a 404
    /// without a look at the store.
    func drawRecord(id: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        guard DrawIdentifier.isValid(id) else { return .json(404, APIMessages.error(.unknownDraw)) }
        guard let store = storage.store else { return Self.noHistory }
        let logger = self.logger, shared = rooms.cluster?.services.records
        return answerFromStorage(exchange, wsi) {
            do throws(StorageError) {
                guard let record = try store.record(id: id) else {
                    // Cluster mode: another node may have run it. Redis out of reach is not "no
                    // such draw": say so, rather than a 404 a client would take as final.
                    do throws(CoordinationError) {
                        if let body = try shared?.body(drawId: id) { return .json(200, body) }
                    } catch {
                        return .json(503, APIMessages.error(.clusterUnavailable))
                    }
                    return .json(404, APIMessages.error(.unknownDraw))
                }
                return .json(200, RecordMessages.record(record))
            } catch {
                logger.error("could not read a draw record", metadata: ["drawId": "\(id)", "error": "\(error)"])
                return .json(503, APIMessages.error(.storageUnavailable))
            }
        }
    }

    /// Without a store there is no history to serve.
    static let noHistory = HTTPResponse.json(404, APIMessages.error(
        .notFound, message: "This server keeps no draw history (it was started without a data directory)."))

    /// Runs `read` on the storage thread (rule 5) and answers the request when it returns.
    /// Returns `nil` (answer later), or a 503 when the storage thread no longer takes work.
    /// A connection waits for its answer before it can ask again, so reads in the queue never
    /// outnumber the connections (`maxConnections`).
    func answerFromStorage(_ exchange: HTTPExchange, _ wsi: Connection,
                                   _ read: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse? {
        guard storage.thread != nil else { return .json(503, APIMessages.error(.storageUnavailable)) }
        lastReadNumber += 1
        let number = lastReadNumber, inbox = loop.inbox
        pendingReads[number] = PendingRead(connection: wsi, exchange: exchange)
        guard storage.submit({ inbox.post(.storageAnswered(request: number, read())) }) else {
            pendingReads[number] = nil
            return .json(503, APIMessages.error(.storageUnavailable))
        }
        return nil
    }

    /// A read came back: answer its request, unless the client has gone meanwhile.
    func storageAnswered(request: UInt64, _ response: HTTPResponse) {
        guard let pending = pendingReads.removeValue(forKey: request), let exchange = pending.exchange,
              !loop.destroying else { return }
        respond(response, to: exchange, pending.connection)
    }
}
