import DrawCore
import DrawPresentation
import DrawTransport

/// What a room's host may do to the room itself with its key: delete it, rotate the key
/// (`DELETE /api/rooms/ROOM`, `POST /api/rooms/ROOM/key`). Service thread only; the store is
/// changed on the storage thread and memory only once it has answered.
///
/// The lobby is neither: its key is the operator's (the data directory's `lobby.key`, the
/// `--lobby-key-file`, `--rotate-lobby-key`), so both answer `403 forbidden` there.
extension RoomDirectory {
    /// The host key checks both actions share, in constant time (`HostKeyHash.matches`): 401
    /// without a key, 403 with a wrong one, 403 for the lobby.
    func refuseHost(_ room: Room, key: String?) -> HostRefusal? {
        if let refusal = refuseKey(room, key: key) { return refusal }
        guard room.name != RoomName.lobby else {
            return HostRefusal(.forbidden, "The lobby's key is set by the server's operator (--rotate-lobby-key); the lobby cannot be deleted.")
        }
        return nil
    }

    /// Whether `key` is the room's host key (any room, the lobby too).
    func refuseKey(_ room: Room, key: String?) -> HostRefusal? {
        guard let key, !key.isEmpty else { return HostRefusal(.unauthorized, "Send the room's host key as Authorization: Bearer KEY.") }
        guard room.keyHash.matches(key) else { return HostRefusal(.forbidden, "A valid host key is required.") }
        return nil
    }

    /// The key check of an action that does not read the room again anyway (an upload's head,
    /// the next winner, a cancel, a schedule): a key this node's copy of the room refuses is
    /// checked once more against the room's record read again from the shared store before the
    /// 403 (issue 44), as the key may have been rotated, or the room made, through another node a
    /// moment ago. One node has nothing to read again: the answer is the same. `notInLobby`: the
    /// action is one the lobby's operator-set key may not do either (`refuseHost`); otherwise the
    /// lobby's key works as any room's (a draw's next winner, a schedule there).
    func checkHost(_ room: Room, key: String?, notInLobby: Bool = false,
                   then answer: @escaping (HostRefusal?) -> Void) {
        let refuse = { [unowned self] (room: Room) in notInLobby ? refuseHost(room, key: key) : refuseKey(room, key: key) }
        guard let refusal = refuse(room) else { return answer(nil) }
        guard let key, !key.isEmpty, !room.keyHash.matches(key), room.name != RoomName.lobby else { return answer(refusal) }
        shared.refresh(room, forViewer: false) { why in
            if let why { return answer(HostRefusal(why)) }
            answer(refuse(room))
        }
    }

    /// Deletes `room` for good: from the store, then from memory; its viewers get `room_deleted`
    /// and the close 4404. Refused while a draw is loading, running or being recorded (409
    /// `draw_running`): its viewers would lose the result. Its draws' history stays.
    func deleteRoom(_ room: Room, hostKey: String?, fresh: Bool = false, then answer: @escaping (HostRefusal?) -> Void) {
        if !fresh { // the key may have been rotated through another node
            return shared.refresh(room, forViewer: false) { [unowned self] refusal in
                if let refusal { return answer(HostRefusal(refusal)) }
                deleteRoom(room, hostKey: hostKey, fresh: true, then: answer)
            }
        }
        if let refusal = refuseHost(room, key: hostKey) { return answer(refusal) }
        guard !room.hasWork else { return answer(HostRefusal(.drawRunning, "Wait for the draw to end, then delete the room.")) }
        guard !room.deleting else { return answer(HostRefusal(.unknownRoom)) }
        room.deleting = true // no draw starts and no lookup finds it while the store deletes it
        let name = room.name
        guard storage.rooms != nil else {
            finishDeletion(of: room)
            return answer(nil)
        }
        let submitted = storage.roomJob({ store throws(StorageError) in try store.deleteRoom(named: name) }) { [unowned self] result in
            switch result {
            case .success:
                finishDeletion(of: room)
                shared.deleted(room)
                answer(nil)
            case .failure(let error):
                room.deleting = false
                logger.error("could not delete a room", metadata: ["room": "\(name)", "error": "\(error)"])
                answer(HostRefusal(shared.storeFailure(error, what: "a room's deletion")))
            }
        }
        if !submitted {
            room.deleting = false
            answer(HostRefusal(.storageUnavailable))
        }
    }

    /// The store forgot the room: tell its viewers, close them, and take it out of memory.
    func finishDeletion(of room: Room) {
        for client in Array(room.members) {
            writer.sendPrivate(WireMessages.error(.roomDeleted), to: client)
            writer.close(client, code: CloseCode.unknownRoom, reason: "room deleted", drainRoom: false)
        }
        // Idle now (no viewers, no draw): its timers go before the room itself.
        remove(room, reason: .deleted)
        logger.info("room deleted", metadata: ["room": "\(room.name)"])
    }

    /// Gives `room` a new host key; the old one stops working once the store has the new hash.
    /// Allowed while a draw runs: the running draw is not the key's, and a host who fears the key
    /// leaked should not have to wait. Counts as activity (the store's `replaceKeyHash`).
    func rotateKey(of room: Room, hostKey: String?, fresh: Bool = false,
                   then answer: @escaping (Result<String, HostRefusal>) -> Void) {
        if !fresh { // likewise
            return shared.refresh(room, forViewer: false) { [unowned self] refusal in
                if let refusal { return answer(.failure(HostRefusal(refusal))) }
                rotateKey(of: room, hostKey: hostKey, fresh: true, then: answer)
            }
        }
        if let refusal = refuseHost(room, key: hostKey) { return answer(.failure(refusal)) }
        let key = HostKey.generate(using: random), hash = HostKeyHash(of: key)
        let name = room.name, at = clock.epochMillis()
        guard storage.rooms != nil else {
            room.replaceKey(hash, at: at)
            return answer(.success(key))
        }
        let submitted = storage.roomJob({ store throws(StorageError) in
            try store.replaceKeyHash(ofRoom: name, with: hash, at: at)
        }) { [unowned self] result in
            switch result {
            case .success(true):
                room.replaceKey(hash, at: at)
                logger.info("room host key rotated", metadata: ["room": "\(name)"])
                answer(.success(key))
            case .success(false):
                answer(.failure(HostRefusal(.unknownRoom)))
            case .failure(let error):
                logger.error("could not rotate a room's key", metadata: ["room": "\(name)", "error": "\(error)"])
                answer(.failure(HostRefusal(shared.storeFailure(error, what: "a room's new key"))))
            }
        }
        if !submitted { answer(.failure(HostRefusal(.storageUnavailable))) }
    }
}

/// Why a host's request about its room was refused, with the sentence to send (`nil`: the
/// code's default).
struct HostRefusal: Error {
    let code: ClientErrorCode
    let message: String?

    init(_ code: ClientErrorCode, _ message: String? = nil) {
        self.code = code
        self.message = message
    }
}
