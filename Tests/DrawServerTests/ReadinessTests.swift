@testable import DrawServer
import DrawTransport
import Foundation
import Testing

extension RealSocketTests {
    /// `Readiness` wakes the lws service loop for descriptors we read ourselves: handlers run on
    /// the service thread, as long as data is there, and never after `unwatch`.
    @Suite struct ReadinessTests {
        /// What handlers saw, from the service thread, for the test thread to wait on.
        final class Log: @unchecked Sendable {
            private let condition = NSCondition()
            private var bytes: [UInt8] = []
            private var onServiceThread = true

            func record(_ data: [UInt8], serviceThread: Bool) {
                condition.withLock {
                    bytes += data
                    onServiceThread = onServiceThread && serviceThread
                    condition.broadcast()
                }
            }

            /// Waits (bounded) until `count` bytes arrived; what arrived and whether all came on the service thread.
            func wait(for count: Int, seconds: Double = 5) -> (bytes: [UInt8], serviceThread: Bool) {
                let deadline = Date().addingTimeInterval(seconds)
                return condition.withLock {
                    while bytes.count < count, condition.wait(until: deadline) {}
                    return (bytes, onServiceThread)
                }
            }
        }

        /// Posts `body` to the service thread and waits until it ran.
        private func onService(_ running: RunningServer, _ body: @escaping @Sendable (LiveDrawServer) -> Void) {
            let done = DispatchSemaphore(value: 0)
            running.server.onServiceThread { server in body(server); done.signal() }
            #expect(done.wait(timeout: .now() + 5) == .success)
        }

        @Test func handlerReadsWhatArrivesOnAWatchedPipe() throws {
            let running = try RunningServer()
            defer { running.stop() }
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            let (readEnd, writeEnd) = (ends[0], ends[1])
            defer { close(readEnd); close(writeEnd) }
            let log = Log()
            let serviceThreadID = ThreadBox()
            onService(running) { server in
                serviceThreadID.set(pthread_self())
                let watched = server.loop.readiness?.watch(readEnd, for: .readable) { events in
                    guard events.contains(.readable) else { return }
                    var buffer = [UInt8](repeating: 0, count: 64)
                    let n = read(readEnd, &buffer, buffer.count)
                    log.record(Array(buffer.prefix(max(n, 0))), serviceThread: serviceThreadID.isCurrent)
                }
                #expect(watched == true)
            }
            // Two separate writes: level-triggered, each one wakes the loop again.
            #expect(write(writeEnd, "ab", 2) == 2)
            #expect(log.wait(for: 2).bytes == Array("ab".utf8))
            #expect(write(writeEnd, "cd", 2) == 2)
            let seen = log.wait(for: 4)
            #expect(seen.bytes == Array("abcd".utf8))
            #expect(seen.serviceThread)

            // After unwatch, data stays unread: the handler is gone.
            onService(running) { server in server.loop.readiness?.unwatch(readEnd) }
            #expect(write(writeEnd, "ef", 2) == 2)
            // What is left is the server's own: its listening socket (the front door).
            onService(running) { server in #expect(server.loop.readiness?.count == 1) }
            var pending: Int32 = 0
            #expect(ioctl(readEnd, UInt(FIONREAD), &pending) == 0)
            #expect(pending == 2)
        }

        @Test func epollDescriptorIsNotCountedAsAConnection() throws {
            let running = try RunningServer()
            defer { running.stop() }
            onService(running) { server in #expect(server.loop.openConnections.isEmpty) }
        }

        final class ThreadBox: @unchecked Sendable {
            private let lock = NSLock()
            private var thread: pthread_t?
            func set(_ t: pthread_t) { lock.withLock { thread = t } }
            var isCurrent: Bool { lock.withLock { thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }
        }
    }
}
