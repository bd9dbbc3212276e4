@testable import DrawServer
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
    #endif
}
