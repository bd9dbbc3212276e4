import DrawCore
import DrawPresentation
import DrawTransport

/// `GET /api/rooms/ROOM/draws` in cluster mode: the page comes from the cluster's shared history
/// (`SharedDrawRecords`), not this node's store, so every node answers the same, whichever node
/// ran the draws (docs/SCALING.md). Read on the storage thread, which may wait for Redis.
extension HTTPAPI {
    func sharedHistoryPage(room name: String, request: DrawPageRequest, live: Bool, shared: any SharedDrawRecords,
                           _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let logger = self.logger, kept = storage.rooms
        return answerFromStorage(exchange, wsi) {
            let page: SharedDrawPage
            do throws(CoordinationError) {
                page = try shared.page(room: name, request: request)
            } catch {
                // Out of reach is not "no history": a 404 would read as final.
                logger.warning("could not read the shared draw history", metadata: ["room": "\(name)", "error": "\(error)"])
                return .json(503, APIMessages.error(.clusterUnavailable))
            }
            if page.summaries.isEmpty && !live && !page.roomHasDraws {
                // A room kept in the registry but not in this node's memory is a room, draws or not.
                do throws(StorageError) {
                    if try kept?.room(named: name) == nil { return .json(404, APIMessages.error(.unknownRoom)) }
                } catch {
                    logger.warning("could not look up a room", metadata: ["room": "\(name)", "error": "\(error)"])
                    return .json(503, APIMessages.error(.clusterUnavailable))
                }
            }
            return .json(200, RecordMessages.history(room: name, summaries: page.summaries, next: page.next))
        }
    }
}
