/// A continuation made on the service thread that a storage job carries to the inbox without
/// touching it: the job only moves it, and `ServiceDispatcher` calls it on the service thread
/// (`ServiceCommand.storageReturned`). That is what makes `@unchecked Sendable` sound here: the
/// closure (which holds rooms, clients, exchanges) is only ever called where they live.
final class ServiceCallback<Value>: @unchecked Sendable {
    private let body: (Value) -> Void

    init(_ body: @escaping (Value) -> Void) { self.body = body }

    /// Service thread only.
    func callAsFunction(_ value: Value) { body(value) }
}
