import DrawCore
import DrawPresentation
import DrawTransport

/// Requests answered from the stores' threads: the history endpoints (`HistoryReads` decides what
/// each reads) and their answers, which come back as service-thread jobs.
extension HTTPAPI {
    /// Answers at once, or runs the read on its store's thread and answers later (`nil`).
    func answer(_ answer: HistoryAnswer, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        switch answer {
        case .now(let response):
            return response
        case .read(let reads, let read):
            guard storage.thread != nil else { return .json(503, APIMessages.error(.storageUnavailable)) }
            lastReadNumber += 1
            let number = lastReadNumber
            pendingReads[number] = PendingRead(connection: wsi, exchange: exchange)
            guard submit(read, reading: reads, request: number) else {
                pendingReads[number] = nil
                return .json(503, APIMessages.error(.storageUnavailable))
            }
            return nil
        }
    }

    /// Runs `read` on its store's thread (rule 5); what it answers comes back as a job: the
    /// response for waiting request `number`, or the next read. A connection waits for its answer
    /// before it can ask again, so reads in the queues never outnumber the connections.
    private func submit(_ read: @escaping @Sendable () -> HistoryAnswer, reading reads: ServerStorage.Reads,
                        request number: UInt64) -> Bool {
        let answered = loop.executor.continuation { [unowned self] (next: HistoryAnswer) in
            switch next {
            case .now(let response):
                storageAnswered(request: number, response)
            case .read(let reads, let read):
                if !submit(read, reading: reads, request: number) {
                    storageAnswered(request: number, .json(503, APIMessages.error(.storageUnavailable)))
                }
            }
        }
        return storage.submit({ answered(read()) }, reading: reads)
    }

    /// A read came back: answer its request, unless the client has gone meanwhile.
    func storageAnswered(request: UInt64, _ response: HTTPResponse) {
        guard let pending = pendingReads.removeValue(forKey: request), let exchange = pending.exchange,
              !loop.destroying else { return }
        respond(response, to: exchange, pending.connection)
    }
}
