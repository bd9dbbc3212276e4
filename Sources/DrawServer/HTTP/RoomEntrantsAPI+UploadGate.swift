import DrawPresentation

/// The upload's checks before its body is read (issue 31, findings 1 and 4), in the order the API
/// answers them once the body is in: a key at all (401, first on every keyed operation), the type
/// (415), whether the server takes lists at all and the room (404), the key itself (403, in
/// constant time against the room's key hash; a miss reads the room again in cluster mode). The
/// room is loaded from the store if it has to be, asynchronously. The full checks run again once
/// the body is in (a draw may have started meanwhile, the key may have been rotated).
extension RoomEntrantsAPI: UploadGate {
    func check(_ upload: UploadRequest, then verdict: @escaping (UploadVerdict) -> Void) {
        let key = BearerToken.parse(upload.authorization)
        guard key != nil else {
            return verdict(.refuse(.unauthorized, message: "Send the room's host key as Authorization: Bearer KEY."))
        }
        guard Self.listFormat(upload.contentType) != nil else {
            return verdict(.refuse(.unsupportedMediaType, message: Self.listTypeMessage))
        }
        guard config.entrantListReader != nil || config.roomURLSources != nil else {
            return verdict(.refuse(.notFound, message: "This server takes no entrant lists from hosts."))
        }
        guard RoomName.isValid(upload.room) else { return verdict(.refuse(.unknownRoom, message: nil)) }
        directory.withRoom(named: upload.room) { [unowned self] found in
            switch found {
            case .failure(let code):
                verdict(.refuse(code, message: nil))
            case .success(let room):
                // A key rotated through another node a moment ago is read again, not refused.
                directory.checkHost(room, key: key, notInLobby: true) { refusal in
                    guard let refusal else { return verdict(.admit) }
                    verdict(.refuse(refusal.code, message: refusal.message))
                }
            }
        }
    }
}
