import DrawCore

/// A beacon draw's `beacon` object (docs/FAIRNESS.md §9, PROTOCOL.md): in `started` (and the
/// snapshot of a running draw) the round the commitment names, `{"chain","round","at"}`; in
/// `finished` and records also the round's `randomness` and `signature` (`null` in the record of a
/// draw whose round never came: no pick was made and its seed was never used). Absent for a draw
/// made with the seed alone, so its messages are byte for byte what they always were.
extension WireMessages {
    static func writeBeacon(_ beacon: DrawBeacon?, withValues: Bool, into w: inout JSONWriter) {
        guard let beacon else { return }
        w.key("beacon"); w.beginObject()
        w.field("chain", beacon.chainHash)
        w.field("round", Int(clamping: beacon.round))
        w.field("at", millis: beacon.roundAtMs)
        if withValues {
            w.field("randomness", orNull: beacon.value?.randomnessHex)
            w.field("signature", orNull: beacon.value?.signatureHex)
        }
        w.endObject()
    }
}
