/// A configuration the server must not start with. `message` is one line, shown as is.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and, where it helps, what to do instead. Never more than one line.
    public let message: String

    public init(_ message: String) {
        // Operators read this in a terminal or a log line: keep it to one line whatever the
        // source (an argument-parser message may contain line breaks).
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    public var description: String { message }
}
