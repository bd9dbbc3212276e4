import CHiredisShim

/// One reply from Redis (RESP2), copied out of hiredis' reply object so it outlives it.
public enum RedisReply: Sendable, Hashable {
    /// A bulk string: any bytes.
    case string([UInt8])
    case integer(Int64)
    case array([RedisReply])
    /// A nil bulk string or array (`GET` of a missing key, `SET NX` that did not set).
    case null
    /// A status line (`+OK`, `+PONG`).
    case status(String)
    /// An error line (`-ERR ...`, `-NOAUTH ...`, `-WRONGPASS ...`): Redis refused the command; the
    /// connection itself is fine.
    case error(String)

    /// Whether this is Redis' refusal of a write for want of memory: `-OOM command not allowed
    /// when used memory > 'maxmemory'` (`maxmemory` reached under `noeviction`). A script's
    /// write refused inside it answers the same code (Redis 7: `OOM … script: …`); older servers
    /// wrapped it (`ERR Error running script … -OOM …`), so that form counts too.
    public var isOutOfMemory: Bool {
        guard case .error(let message) = self else { return false }
        return message.hasPrefix("OOM ") || message.contains("-OOM ")
    }

    /// The bulk string as UTF-8 text, if it is one and valid.
    public var text: String? {
        if case .string(let bytes) = self { return String(validating: bytes, as: UTF8.self) }
        return nil
    }

    /// The bulk string's bytes, if it is one.
    public var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    /// Copies a hiredis reply. hiredis has parsed the lengths and counts from the peer and
    /// allocated exactly that much; converting them to `Int` is still checked, so a size that
    /// does not fit is a protocol error rather than a trap. Nesting is bounded by hiredis (7).
    init(copying reply: UnsafePointer<redisReply>) throws(RedisError) {
        let r = reply.pointee
        switch r.type {
        case Int32(LDREDIS_REPLY_STRING.rawValue):
            self = .string(try Self.bytes(r.str, r.len))
        case Int32(LDREDIS_REPLY_STATUS.rawValue):
            self = .status(String(decoding: try Self.bytes(r.str, r.len), as: UTF8.self))
        case Int32(LDREDIS_REPLY_ERROR.rawValue):
            self = .error(String(decoding: try Self.bytes(r.str, r.len), as: UTF8.self))
        case Int32(LDREDIS_REPLY_INTEGER.rawValue):
            self = .integer(Int64(r.integer))
        case Int32(LDREDIS_REPLY_NIL.rawValue):
            self = .null
        case Int32(LDREDIS_REPLY_ARRAY.rawValue):
            let count = r.elements
            guard count >= 0 else { throw .protocolError("negative array count") }
            guard count > 0 else { self = .array([]); return }
            guard let elements = r.element else { throw .protocolError("array without elements") }
            var items: [RedisReply] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                guard let element = elements[i] else { throw .protocolError("missing array element") }
                items.append(try RedisReply(copying: element))
            }
            self = .array(items)
        default:
            throw .protocolError("unknown reply type \(r.type)")
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) throws(RedisError) -> [UInt8] {
        guard length >= 0 else { throw .protocolError("negative length") }
        guard length > 0 else { return [] }
        guard let pointer else { throw .protocolError("string without bytes") }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
