import DrawPresentation

extension HTTPResponse {
    /// A host's action refused: the refusal's status, code and message.
    static func refused(_ refusal: HostRefusal) -> HTTPResponse {
        .json(refusal.code.httpStatus, APIMessages.error(refusal.code, message: refusal.message))
    }

    /// `204` with no body: a room or its list deleted.
    static let noContent = HTTPResponse(status: 204, contentType: "application/json", body: [])
}
