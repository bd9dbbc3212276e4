/// WebSocket close codes: those the server sends, and the rule for those a client may send.
/// docs/PROTOCOL.md section 4 lists them for clients.
package enum CloseCode {
    package static let normal: UInt16 = 1000
    package static let goingAway: UInt16 = 1001
    package static let protocolError: UInt16 = 1002
    package static let invalidPayload: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    package static let messageTooBig: UInt16 = 1009
    package static let internalError: UInt16 = 1011
    /// The room could not be loaded right now (too many loads at once, the store unavailable).
    package static let tryAgainLater: UInt16 = 1013
    package static let unknownRoom: UInt16 = 4404
    package static let tooSlow: UInt16 = 4408

    /// Whether a client may put `code` in its close frame (RFC 6455 section 7.4); anything else
    /// fails the connection with 1002.
    ///
    /// - 1000-1003 and 1007-1011: the codes RFC 6455 defines for an endpoint to send (1011 as
    ///   amended by the IANA registry: either side may report an internal error).
    /// - 1012-1014 (service restart, try again later, bad gateway) are refused: they were
    ///   registered after RFC 6455 for servers and gateways, a browser never sends them, and
    ///   lws refuses them as well, so the server's behaviour does not change with this rule.
    /// - 1004-1006 and 1015 are reserved and must never be on the wire.
    /// - 3000-4999: registered and private-use codes, which browsers let scripts send.
    package static func clientMaySend(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }
}
