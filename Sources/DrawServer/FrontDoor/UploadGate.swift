import DrawPresentation

/// What the front door asks before it reads a byte of an upload's body (issue 31, findings 1 and
/// 4): whether the room exists, the key is its host's and the `Content-Type` is a list's. A body
/// of up to 16 MiB is then read only for a host who may send it, and a refusal (401, 403, 404,
/// 415) comes at once, before `100 Continue`. Implemented by `RoomEntrantsAPI`; the verdict may come
/// later (the room may have to be loaded from the store first), on the service thread.
protocol UploadGate: AnyObject {
    func check(_ upload: UploadRequest, then verdict: @escaping (UploadVerdict) -> Void)
}

/// An upload's head, as the gate needs it.
struct UploadRequest {
    /// The room named by the path (`PUT /api/rooms/ROOM/entrants`).
    let room: String
    let contentType: String?
    let authorization: String?
}

enum UploadVerdict: Equatable {
    case admit
    case refuse(ClientErrorCode, message: String?)
}
