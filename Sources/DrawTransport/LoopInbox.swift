import Foundation

/// The only door into the service thread from outside: commands of the server's own kind,
/// `Command`, posted from any thread and drained on the service thread.
///
/// Rule: any thread may `post`; it appends under the lock and wakes the loop (`Transport.wake`,
/// `lws_cancel_service`, documented as thread-safe), and the service thread `drain`s when the
/// handler gets `.wakeUp`. `@unchecked Sendable` is sound because every stored property is read
/// and written only while holding `lock`.
package final class LoopInbox<Command: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var commands: [Command] = []
    /// The transport to wake; `nil` before it exists and after it is destroyed, so a late
    /// `post` never touches a freed context.
    private var transport: Transport?

    package init() {}

    package func attach(_ transport: Transport) {
        lock.withLock { self.transport = transport }
    }

    package func detach() {
        lock.withLock { transport = nil }
    }

    package func post(_ command: Command) {
        lock.withLock {
            commands.append(command)
            transport?.wake()
        }
    }

    package func drain() -> [Command] {
        lock.withLock {
            defer { commands.removeAll() }
            return commands
        }
    }
}
