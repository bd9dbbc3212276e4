@testable import DrawServer
import DrawData
import DrawTransport
import Foundation
import Testing

/// The debug-build thread check: a wrong hop stops the process instead of corrupting state.
@Suite struct ThreadOwnerTests {
    @Test func theClaimingThreadPasses() {
        let owner = ThreadOwner(name: "test")
        owner.check() // before any claim: passes
        owner.claim()
        owner.check()
    }

    #if DEBUG
    @Test func anotherThreadTrapsOnceClaimed() async {
        await #expect(processExitsWith: .failure) {
            let owner = ThreadOwner(name: "service")
            owner.claim()
            let done = DispatchSemaphore(value: 0)
            Thread { owner.check(); done.signal() }.start()
            done.wait()
        }
    }

    /// The storage thread's owner is its store: once `StorageThread` runs, a store call from any
    /// other thread (here the test's, standing in for the service thread) traps.
    @Test func aStoreCallOffTheStorageThreadTraps() async {
        await #expect(processExitsWith: .failure) {
            // `storeCallsOnTheStorageThreadPass` shows this setup itself works.
            let dir = try! TestDataDirectory()
            let store = RecoveringDrawStore(try! dir.open())
            let thread = StorageThread(name: "test storage", store: store)
            let ran = DispatchSemaphore(value: 0)
            _ = thread.submit { _ = try? store.record(id: "0"); ran.signal() } // on its own thread: fine
            ran.wait()
            _ = try? store.record(id: "0")
        }
    }
    #endif

    /// The same call on the storage thread passes, and before the thread runs any thread may
    /// call the store (the server's `init` and recovery run before it starts).
    @Test func storeCallsOnTheStorageThreadPass() throws {
        let dir = try TestDataDirectory()
        let store = RecoveringDrawStore(try dir.open())
        #expect(try store.record(id: "0") == nil)
        let thread = StorageThread(name: "test storage", store: store)
        defer { thread.finish() }
        final class Answer: @unchecked Sendable { var found = true } // written before `done`
        let answer = Answer(), done = DispatchSemaphore(value: 0)
        #expect(thread.submit { answer.found = (try? store.record(id: "0")) != nil; done.signal() })
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(!answer.found)
    }
}
