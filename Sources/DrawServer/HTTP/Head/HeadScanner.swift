/// Finds where a request head ends while its bytes arrive, and refuses early what can never
/// become an acceptable head — a line end without CR, a request line or a head past the limits —
/// so a peer cannot make the server keep more than the limits while it waits.
///
/// Feed it the connection's whole buffer each time more arrived; it resumes where it stopped.
/// Pure: no I/O, no clock.
struct HeadScanner {
    enum Progress: Equatable {
        case incomplete
        /// The head is `buffer[start..<end]`: from the request line through the empty line.
        /// Leading empty lines (RFC 9112 §2.2 lets a server skip them) are before `start`.
        case complete(start: Int, end: Int)
        case rejected(HeadRejection)
    }

    let limits: RequestLimits
    /// Bytes examined so far.
    private(set) var scanned = 0
    private var lineStart = 0
    private var requestLineStart: Int?
    private var fieldLines = 0
    private var finished: Progress?

    init(limits: RequestLimits) { self.limits = limits }

    /// Slack on top of the target for the method, the version and two spaces of a request line.
    static let requestLineSlack = 48

    mutating func scan(_ buffer: [UInt8]) -> Progress {
        if let finished { return finished }
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var i = scanned
        while i < buffer.count {
            defer { i += 1 }
            guard buffer[i] == lf else { continue }
            guard i > lineStart, buffer[i - 1] == cr else { return finish(.rejected(.malformed("line ends must be CRLF"))) }
            if i - 1 == lineStart { // an empty line
                if let start = requestLineStart {
                    guard i + 1 <= limits.maxHeadBytes else { return finish(.rejected(.headersTooLarge)) }
                    return finish(.complete(start: start, end: i + 1))
                }
            } else if requestLineStart == nil {
                requestLineStart = lineStart
            } else {
                fieldLines += 1
                if fieldLines > limits.maxHeaderFields { return finish(.rejected(.headersTooLarge)) }
            }
            lineStart = i + 1
        }
        scanned = buffer.count
        // Still incomplete: refuse now what could only grow further past a limit.
        if requestLineStart == nil, scanned - lineStart > limits.maxTargetBytes + Self.requestLineSlack {
            return finish(.rejected(.targetTooLong))
        }
        if scanned >= limits.maxHeadBytes { return finish(.rejected(.headersTooLarge)) }
        return .incomplete
    }

    private mutating func finish(_ p: Progress) -> Progress {
        finished = p
        return p
    }
}
