import DrawCore
import DrawPresentation
@testable import DrawServer
import Foundation
import Testing

/// Scheduled draws on the room owners (issue 30), on a `FakeLoop` and a manual clock: the
/// scheduler's timer is fired by hand with the clock moved to the draw's time, so no test waits.
@Suite struct DrawSchedulerTests {
    typealias Owners = RoomOwnersTests

    struct Scheduled {
        let owners: OwnersFixture
        let room: Room
        let key: String
        let commitment: ScheduledDrawCommitment
    }

    /// A room with its own list and a draw scheduled `aheadMs` from now.
    static func scheduled(aheadMs: Double = 60_000) throws -> Scheduled {
        let owners = OwnersFixture()
        let key = try #require(owners.createRoom("quiz"))
        let room = try #require(owners.directory["quiz"])
        Owners.giveList(to: room)
        var answer: Result<ScheduledDrawCommitment, HostRefusal>?
        owners.owners.scheduler.schedule(in: room, hostKey: key, at: owners.clock.epochMillis() + aheadMs,
                                         reveal: nil) { answer = $0 }
        owners.loop.runJobs() // the list in memory comes back as a job
        guard case .success(let commitment)? = answer else { throw Failure("not scheduled: \(String(describing: answer))") }
        return Scheduled(owners: owners, room: room, key: key, commitment: commitment)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    /// The scheduler's timer: the one armed last.
    static func schedulerTimer(_ owners: OwnersFixture) -> ManualServiceTimer? {
        owners.loop.timers.last { $0.armed != nil }
    }

    @Test func theCommitmentIsPublishedAtOnceAndTheDrawStartsAtItsTimeWithIt() throws {
        let s = try Self.scheduled()
        #expect(s.room.scheduled == s.commitment)
        #expect(s.owners.broadcastTypes(in: s.room) == ["room"], "viewers see the schedule without reconnecting")
        #expect(!s.room.isBusy)
        let timer = try #require(Self.schedulerTimer(s.owners))
        #expect(timer.armed == 60_001_000_000, "armed for the draw's time (plus a millisecond): \(String(describing: timer.armed))")

        // Later edits of the room's list do not reach the scheduled draw.
        #expect(s.room.beginChange())
        s.room.applyChange(list: .upload(RoomEntrants(players: Array(RunningServer.players.prefix(2)), warnings: [],
                                                      sources: EntrantsOrigin.plainText)),
                           settings: nil, at: 0, keepsOwnList: true)
        s.owners.clock.nanos += 60_000_000_000
        timer.fire()
        s.owners.loop.runJobs()
        #expect(s.room.isBusy, "started by itself at its time")
        guard case .running(let plan, _, _) = s.room.current else { Issue.record("not running"); return }
        #expect(plan.drawId == s.commitment.drawId && plan.commitment == s.commitment.seedHash)
        #expect(plan.entrantsHash == s.commitment.entrantsHash && plan.entrants == RunningServer.players)
        #expect(s.room.scheduled == nil)
        Owners.runDrawSteps(in: s.room, s.owners)
        #expect(s.owners.broadcastTypes(in: s.room).filter { $0 != "round" } == ["room", "started", "finished"])
    }

    @Test func timesOutsideTheWindowAndASecondScheduleAreRefused() throws {
        let s = try Self.scheduled()
        let now = s.owners.clock.epochMillis()
        var codes: [ClientErrorCode] = []
        for at in [now - 1, now + 1_000, now + 31 * 86_400_000, now + 120_000] {
            s.owners.owners.scheduler.schedule(in: s.room, hostKey: s.key, at: at, reveal: nil) {
                if case .failure(let r) = $0 { codes.append(r.code) }
            }
        }
        s.owners.owners.scheduler.schedule(in: s.room, hostKey: "0" * 48, at: now + 120_000, reveal: nil) {
            if case .failure(let r) = $0 { codes.append(r.code) }
        }
        #expect(codes == [.timePassed, .tooSoon, .tooFarAhead, .alreadyScheduled, .forbidden])
    }

    @Test func cancelRevealsTheSeedAndNothingStarts() throws {
        let s = try Self.scheduled()
        var answer: Result<ScheduledDraw, HostRefusal>?
        s.owners.owners.scheduler.cancel(in: s.room, hostKey: "0" * 48) { answer = $0 }
        guard case .failure(let wrong)? = answer else { Issue.record("a wrong key cancelled"); return }
        #expect(wrong.code == .forbidden)
        s.owners.owners.scheduler.cancel(in: s.room, hostKey: s.key) { answer = $0 }
        guard case .success(let draw)? = answer else { Issue.record("not cancelled"); return }
        #expect(draw.seed.commitment == s.commitment.seedHash)
        #expect(s.room.scheduled == nil && s.owners.broadcastTypes(in: s.room) == ["room", "room"])
        s.owners.clock.nanos += 61_000_000_000
        s.owners.loop.fireDueTimers()
        s.owners.loop.runJobs()
        #expect(!s.room.isBusy, "a cancelled draw never starts")
        s.owners.owners.scheduler.cancel(in: s.room, hostKey: s.key) { answer = $0 }
        guard case .failure(let none)? = answer else { Issue.record("cancelled twice"); return }
        #expect(none.code == .notScheduled)
    }

    @Test func aDrawWokenPastTheGraceIsMissedNotStarted() throws {
        let s = try Self.scheduled()
        s.owners.clock.nanos += UInt64((60_000 + s.owners.config.scheduleWindow.graceMs + 1) * 1_000_000)
        s.owners.loop.fireDueTimers()
        s.owners.loop.runJobs()
        #expect(!s.room.isBusy && s.room.scheduled == nil)
        #expect(s.owners.broadcastTypes(in: s.room) == ["room", "room"], "viewers told it will not run")
    }

    @Test func aRoomBusyAtTheTimeIsTriedAgainEverySecond() throws {
        let s = try Self.scheduled(aheadMs: 5_000)
        var started: ClientErrorCode?? = .none
        s.owners.draws.startDraw(in: s.room, hostKey: s.key) { started = .some($0) }
        #expect(started == .some(nil) && s.room.isBusy)
        let timer = try #require(s.owners.loop.timers.first { $0.armed == 5_001_000_000 })
        s.owners.clock.nanos += 5_000_000_000
        timer.fire()
        s.owners.loop.runJobs()
        #expect(timer.armed == 1_000_000_000 + 1_000_000, "tried again a second later")
        s.room.runner?.abort(reason: "test") // the host's draw ends
        #expect(!s.room.isBusy)
        s.owners.clock.nanos += 1_000_000_000
        timer.fire()
        s.owners.loop.runJobs()
        guard case .running(let plan, _, _) = s.room.current else { Issue.record("the scheduled draw did not start"); return }
        #expect(plan.drawId == s.commitment.drawId)
    }
}

private func * (s: String, n: Int) -> String { String(repeating: s, count: n) }
