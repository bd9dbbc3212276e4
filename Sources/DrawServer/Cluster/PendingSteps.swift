/// The steps of this node's draws on their way to the cluster's record, per room and in order
/// (`FencedDraws`): one step per room is in flight at a time, so the record gets a room's steps
/// in the order they were taken and a retry never overtakes the step after it. A pure value:
/// the caller sends what it returns and reports each answer (`acknowledged`, `failed`).
struct PendingSteps<Step> {
    private struct Queue {
        var steps = FIFO<(sequence: UInt64, step: Step)>()
        var inFlight = false
    }
    private var rooms: [String: Queue] = [:]

    /// Whether `room` has a step that is not acknowledged yet.
    func isPending(_ room: String) -> Bool { rooms[room] != nil }

    /// Queues `step` (`sequence` names it in the answers); returns it when it is to be sent now
    /// (nothing else of the room is in flight).
    mutating func add(_ step: Step, sequence: UInt64, room: String) -> Step? {
        var queue = rooms[room] ?? Queue()
        queue.steps.push((sequence, step))
        defer { rooms[room] = queue }
        guard !queue.inFlight else { return nil }
        queue.inFlight = true
        return step
    }

    /// The step in flight in `room` was made durable: it is returned (to be shown), with the
    /// next one to send, if any. `nil` when `sequence` is not the step in flight (an answer for
    /// steps dropped since, `drop`).
    mutating func acknowledged(_ sequence: UInt64, room: String) -> (done: Step, next: Step?)? {
        guard var queue = rooms[room], queue.inFlight, queue.steps.first?.sequence == sequence,
              let done = queue.steps.pop() else { return nil }
        guard let next = queue.steps.first else {
            rooms[room] = nil
            return (done.step, nil)
        }
        rooms[room] = queue
        return (done.step, next.step)
    }

    /// The step in flight in `room` got no answer: it stays first, to be sent again (`retry`).
    /// False when `sequence` is not the step in flight.
    mutating func failed(_ sequence: UInt64, room: String) -> Bool {
        guard rooms[room]?.inFlight == true, rooms[room]?.steps.first?.sequence == sequence else { return false }
        rooms[room]?.inFlight = false
        return true
    }

    /// Whether `sequence` is the step in flight in `room`.
    func isInFlight(_ sequence: UInt64, room: String) -> Bool {
        rooms[room]?.inFlight == true && rooms[room]?.steps.first?.sequence == sequence
    }

    /// The first step of every room with none in flight, now in flight: to be sent again.
    mutating func retry() -> [(room: String, step: Step)] {
        var sends: [(room: String, step: Step)] = []
        for (room, queue) in rooms where !queue.inFlight {
            guard let first = queue.steps.first else { continue }
            rooms[room]?.inFlight = true
            sends.append((room, first.step))
        }
        return sends
    }

    /// Forgets every step of `room` (the record refused its draw); returns whether there were any.
    @discardableResult
    mutating func drop(_ room: String) -> Bool { rooms.removeValue(forKey: room) != nil }
}
