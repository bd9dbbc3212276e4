@testable import DrawServer
import Testing

/// The periodic trim of the allocator's free pages (issue 44's RSS): due once every period of
/// housekeeping seconds, from the start, and never with a period below one second.
struct MemoryTrimScheduleTests {
    @Test func dueOnceEveryPeriod() {
        var schedule = MemoryTrimSchedule(periodSeconds: 3)
        let due = (1...9).map { _ in schedule.second() }
        #expect(due == [false, false, true, false, false, true, false, false, true])
    }

    @Test func aPeriodBelowOneSecondIsOneSecond() {
        for period in [0, -5, Int.min] {
            var schedule = MemoryTrimSchedule(periodSeconds: period)
            #expect(schedule.periodSeconds == 1)
            #expect(schedule.second() && schedule.second())
        }
    }
}
