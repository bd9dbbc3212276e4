import CLwsShim

/// What lws' per-session slot holds: which Swift object, retained (see `ldlws_session`).
enum SessionKind: Int32 {
    case none = 0
    case http = 1
    case webSocket = 2
}

/// The per-connection slot. Service thread only.
///
/// Ownership: `attach` stores a +1 reference (`Unmanaged.passRetained`); `releaseSession` gives
/// it back exactly once and zeroes the slot, so the several lws callbacks that may each be the
/// last one for a connection (CLOSED, CLOSED_HTTP, HTTP_DROP_PROTOCOL, WSI_DESTROY) can all
/// call it safely.
extension LiveDrawServer {
    func attach(_ object: AnyObject, kind: SessionKind, to session: UnsafeMutablePointer<ldlws_session>) {
        releaseSession(session)
        session.pointee.object = Unmanaged.passRetained(object).toOpaque()
        session.pointee.kind = kind.rawValue
    }

    func exchange(in session: UnsafeMutablePointer<ldlws_session>?) -> HTTPExchange? {
        guard let session, session.pointee.kind == SessionKind.http.rawValue, let o = session.pointee.object else { return nil }
        return Unmanaged<HTTPExchange>.fromOpaque(o).takeUnretainedValue()
    }

    func client(in session: UnsafeMutablePointer<ldlws_session>?) -> ClientConnection? {
        guard let session, session.pointee.kind == SessionKind.webSocket.rawValue, let o = session.pointee.object else { return nil }
        return Unmanaged<ClientConnection>.fromOpaque(o).takeUnretainedValue()
    }

    func releaseSession(_ session: UnsafeMutablePointer<ldlws_session>?) {
        guard let session, let o = session.pointee.object else { return }
        let kind = SessionKind(rawValue: session.pointee.kind) ?? .none
        session.pointee.object = nil
        session.pointee.kind = SessionKind.none.rawValue
        switch kind {
        case .http:
            Unmanaged<HTTPExchange>.fromOpaque(o).release()
        case .webSocket:
            let client = Unmanaged<ClientConnection>.fromOpaque(o).takeRetainedValue()
            clientClosed(client)
        case .none:
            break
        }
    }
}
