import DrawTransport
/// The one way onto the service thread, from any thread (threading rule 2 on `LiveDrawServer`),
/// in the shape of SwiftNIO's `EventLoop.execute` and `NIOLoopBound`:
/// - `execute(_:)` runs a job on the service thread at its next turn (it goes through the inbox,
///   which wakes lws with `lws_cancel_service`, the one lws call other threads may make);
/// - `continuation(_:)` turns a service-thread closure into one any thread may call with a
///   result, the `then:` of a job submitted elsewhere (the storage thread, the cluster worker, a
///   loading task): the closure itself travels untouched in a `LoopBound` and runs only here.
///
/// Every job is run by `drain()`, which debug builds check is on the service thread.
final class ServiceExecutor: @unchecked Sendable {
    // @unchecked Sendable: `inbox` is thread-safe and `thread` only checks.
    private let inbox: ServiceInbox
    /// The service thread (`ThreadOwner`): claimed when the loop runs, checked by every job.
    let thread: ThreadOwner

    init(inbox: ServiceInbox, thread: ThreadOwner) {
        self.inbox = inbox
        self.thread = thread
    }

    /// Runs `job` on the service thread at its next turn. Any thread.
    func execute(_ job: @escaping @Sendable () -> Void) {
        inbox.post(job)
    }

    /// A function any thread may call with a value; `body` then runs with it on the service
    /// thread. Made on the service thread (it captures service-thread state).
    func continuation<Value: Sendable>(_ body: @escaping (Value) -> Void) -> @Sendable (Value) -> Void {
        let bound = LoopBound(body, thread: thread)
        return { [self] value in execute { bound.value(value) } }
    }

    /// Runs what other threads handed over, in order. Service thread only.
    func drain() {
        thread.check()
        for job in inbox.drain() { job() }
    }
}

/// A service-thread value (a room, a client, a closure holding them) carried through another
/// thread without being touched there, like NIO's `NIOLoopBound`: only the service thread may
/// read `value`, which debug builds check. That is what makes `@unchecked Sendable` sound.
struct LoopBound<Value>: @unchecked Sendable {
    private let wrapped: Value
    private let thread: ThreadOwner

    init(_ value: Value, thread: ThreadOwner) {
        wrapped = value
        self.thread = thread
    }

    /// The value; service thread only.
    var value: Value {
        thread.check()
        return wrapped
    }
}
