import CLwsShim

/// The object a connection carries for the server (its HTTP exchange or its WebSocket client),
/// held with a +1 reference in lws' per-connection slot (`ldlws_session`). Service thread only.
///
/// Ownership: `attach` stores a retained reference; `take` hands it back exactly once and zeroes
/// the slot, so the several lws callbacks that may each be the last one for a connection
/// (CLOSED, CLOSED_HTTP, HTTP_DROP_PROTOCOL, WSI_DESTROY) can all release it safely.
package struct SessionSlot {
    /// What the slot holds.
    package enum Kind: Int32 {
        case none = 0
        case http = 1
        case webSocket = 2
    }

    fileprivate let pointer: UnsafeMutablePointer<ldlws_session>

    fileprivate init(_ pointer: UnsafeMutablePointer<ldlws_session>) { self.pointer = pointer }

    init?(_ user: UnsafeMutableRawPointer?) {
        guard let user else { return nil }
        self.init(user.assumingMemoryBound(to: ldlws_session.self))
    }

    package var kind: Kind { pointer.pointee.object == nil ? .none : Kind(rawValue: pointer.pointee.kind) ?? .none }

    /// Stores `object` (retained) in an empty slot.
    package func attach<T: AnyObject>(_ object: T, kind: Kind) {
        precondition(pointer.pointee.object == nil, "release the slot before attaching")
        pointer.pointee.object = Unmanaged.passRetained(object).toOpaque()
        pointer.pointee.kind = kind.rawValue
    }

    /// The object in the slot when it is of `kind`, without taking it.
    @inline(__always)
    package func object<T: AnyObject>(_ kind: Kind, as type: T.Type) -> T? {
        guard pointer.pointee.kind == kind.rawValue, let o = pointer.pointee.object else { return nil }
        return Unmanaged<T>.fromOpaque(o).takeUnretainedValue()
    }

    /// Takes the object out of the slot when it is of `kind` (the slot's reference goes to the
    /// caller), and zeroes the slot.
    package func take<T: AnyObject>(_ kind: Kind, as type: T.Type) -> T? {
        guard pointer.pointee.kind == kind.rawValue, let o = pointer.pointee.object else { return nil }
        pointer.pointee.object = nil
        pointer.pointee.kind = Kind.none.rawValue
        return Unmanaged<T>.fromOpaque(o).takeRetainedValue()
    }
}
