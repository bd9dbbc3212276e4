import DrawCore
import DrawPresentation
@testable import DrawServer
import Foundation
import Testing

/// The room owners without a server (no lws, no socket, no sleep): a `FakeLoop` whose timers
/// fire by hand and a manual clock, the owners wired as `LiveDrawServer` wires them.
@Suite struct RoomOwnersTests {
    static let entrants = RoomEntrants(players: RunningServer.players, warnings: [], sources: EntrantsOrigin.plainText)

    /// Gives `room` its own list, kept in memory (no room store).
    static func giveList(to room: Room) {
        #expect(room.beginChange())
        room.applyChange(list: .upload(entrants), settings: nil, at: 0, keepsOwnList: true)
    }

    /// Runs the room's draw to its end: jobs first (the list in memory comes back as one, handed
    /// over at the start), then each timer it arms, the clock moved on by the delay asked for.
    /// Bounded: a draw that never ends fails.
    static func runDraw(in room: Room, _ owners: OwnersFixture) {
        #expect(owners.loop.runJobs() >= 1, "the list's answer is a job of its own")
        runDrawSteps(in: room, owners)
    }

    /// Runs the room's draw to its end by its timers alone (its players are in already).
    static func runDrawSteps(in room: Room, _ owners: OwnersFixture) {
        var steps = 0
        while room.isBusy, steps < 200 {
            steps += 1
            let delay = owners.loop.timers.compactMap(\.armed).max() ?? 0
            owners.clock.nanos += delay
            owners.loop.fireDueTimers()
            owners.loop.runJobs()
        }
        #expect(!room.isBusy, "the draw did not end")
    }

    @Test func aDrawRunsFromTheHostsStartToItsResultWithoutAServer() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        Self.giveList(to: room)

        var answer: ClientErrorCode?? = .none
        owners.draws.startDraw(in: room, hostKey: key) { answer = .some($0) }
        #expect(answer == .some(nil), "one node admits a start at once")
        #expect(room.isBusy)
        Self.runDraw(in: room, owners)

        let types = owners.broadcastTypes(in: room)
        #expect(types.first == "loading")
        #expect(types.filter { $0 == "round" }.count == owners.config.schedule.rounds)
        #expect(types.last == "finished")
        let result = try #require(room.lastResult)
        #expect(result.plan.entrants.count == Self.entrants.players.count, "the room's own list was drawn")
        let gaps = Set(owners.loop.timers.flatMap(\.scheduled))
        #expect(gaps.contains(UInt64(400_000_000)), "rounds wait the schedule's gap on the loop's timer: \(gaps)")
    }

    @Test func startsAreRefusedWithoutTheKeyOrWhileDraining() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        var answers: [ClientErrorCode?] = []
        owners.draws.startDraw(in: room, hostKey: nil) { answers.append($0) }
        let wrongKey = (key.first == "0" ? "1" : "0") + key.dropFirst()
        owners.draws.startDraw(in: room, hostKey: wrongKey) { answers.append($0) }
        owners.loop.phase.draining = true
        owners.draws.startDraw(in: room, hostKey: key) { answers.append($0) }
        #expect(answers == [.unauthorized, .forbidden, .draining])
        #expect(!room.isBusy && owners.broadcastTypes(in: room).isEmpty, "nothing started, nothing shown")
    }

    /// Issue 31, finding 7: SIGTERM's `drain()` comes from the signal thread; a start the loop
    /// handles before the drain's own job must already be refused.
    @Test func aStartAfterTheDrainWasAskedIsRefusedBeforeTheLoopHandledIt() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        Self.giveList(to: room)
        owners.loop.phase.stopAsked.raise()   // what `LiveDrawServer.drain()` does at once, on any thread
        #expect(!owners.loop.phase.draining, "the drain's job has not run")
        var answer: ClientErrorCode?? = .none
        owners.draws.startDraw(in: room, hostKey: key) { answer = .some($0) }
        #expect(answer == .some(.draining))
        #expect(!room.isBusy)
    }

    @Test func theListCannotChangeUnderARunningDrawAndASecondStartIsRefused() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        Self.giveList(to: room)
        var first: ClientErrorCode?? = .none, second: ClientErrorCode?? = .none
        owners.draws.startDraw(in: room, hostKey: key) { first = .some($0) }
        owners.draws.startDraw(in: room, hostKey: key) { second = .some($0) }
        #expect(first == .some(nil))
        #expect(second == .some(.drawRunning))

        var refusal: HostRefusal?
        owners.changes.replaceSettings(of: room, hostKey: key, with: RoomSettings()) { refusal = $0 }
        #expect(refusal?.code == .drawRunning)
        Self.runDraw(in: room, owners)

        refusal = HostRefusal(.internalError)
        owners.changes.replaceSettings(of: room, hostKey: key, with: RoomSettings()) { refusal = $0 }
        #expect(refusal == nil, "after the draw the change is applied")
        #expect(owners.broadcastTypes(in: room).last == "room", "viewers are told of the change")
    }

    @Test func aDeletedRoomLeavesMemoryAndItsBusSubscription() throws {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        var refusal: HostRefusal? = HostRefusal(.internalError)
        owners.directory.deleteRoom(room, hostKey: key) { refusal = $0 }
        #expect(refusal == nil)
        #expect(owners.directory["quiz"] == nil)
        var lookup: Result<Room, ClientErrorCode>?
        owners.directory.withRoom(named: "quiz") { lookup = $0 }
        guard case .failure(.unknownRoom)? = lookup else {
            Issue.record("a deleted room was found: \(String(describing: lookup))")
            return
        }
    }

    @Test func aHeldBackLoadingIsShownOnlyWhenItsTimerFires() throws {
        let owners = OwnersFixture { $0.loadingNoticeMs = 250 }
        _ = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        owners.broadcaster.show(WireMessages.heartbeat(intervalMs: 1, serverTime: 0), loading: true, in: room)
        #expect(owners.broadcastTypes(in: room).isEmpty, "held back")
        let timer = try #require(owners.loop.timers.first { $0.armed != nil })
        #expect(timer.armed == 250_000_000)
        timer.fire()
        #expect(owners.broadcastTypes(in: room) == ["heartbeat"])
    }

    @Test func jobsFromOtherThreadsRunOnlyWhenTheLoopRunsThem() {
        let loop = FakeLoop()
        final class Box: @unchecked Sendable { var values: [Int] = [] }
        let box = Box()
        let back = loop.executor.continuation { (value: Int) in box.values.append(value) }
        let handedOver = DispatchSemaphore(value: 0)
        Thread.detachNewThread { back(1); back(2); handedOver.signal() }
        handedOver.wait()
        #expect(box.values.isEmpty, "nothing runs off the loop")
        loop.runJobs()
        #expect(box.values == [1, 2], "in the order they were handed over")
    }
}
