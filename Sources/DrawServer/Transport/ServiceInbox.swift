import DrawCore
import Foundation

/// Work other threads hand to the service thread: a job to run there (`ServiceExecutor`).
typealias ServiceCommand = @Sendable () -> Void

/// The only door into the service thread from outside.
///
/// Rule: any thread may `post`; it appends under the lock and wakes lws with
/// `lws_cancel_service` (documented as thread-safe), and the service thread `drain`s in
/// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. `@unchecked Sendable` is sound because every stored
/// property is read and written only while holding `lock`.
final class ServiceInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var commands: [ServiceCommand] = []
    /// The lws context to wake; `nil` before it exists and after it is destroyed, so a late
    /// `post` never touches a freed context.
    private var context: LwsContext?

    func attach(_ context: LwsContext) {
        lock.withLock { self.context = context }
    }

    func detach() {
        lock.withLock { context = nil }
    }

    func post(_ command: @escaping ServiceCommand) {
        lock.withLock {
            commands.append(command)
            context?.wake()
        }
    }

    func drain() -> [ServiceCommand] {
        lock.withLock {
            defer { commands.removeAll() }
            return commands
        }
    }
}
