import Foundation

/// A configuration the server must not start with. `message` is one line, shown as is.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and, where it helps, what to do instead. Never more than one line.
    public let message: String

    public init(_ message: String) {
        self.message = Self.oneLine(message)
    }

    public var description: String { message }

    /// Operators read this in a terminal or a log line, so it must be one line whatever the
    /// source. argument-parser lists allowed values as "- value" lines; those become a comma
    /// list ("one of the following: trace, debug, …") rather than a run of dashes.
    static func oneLine(_ text: String) -> String {
        var parts: [String] = []
        var items: [String] = []
        func flushItems() {
            if !items.isEmpty { parts.append(items.joined(separator: ", ")); items = [] }
        }
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("- ") {
                items.append(String(line.dropFirst(2)))
            } else if !line.isEmpty {
                flushItems()
                parts.append(line)
            }
        }
        flushItems()
        return parts.joined(separator: " ")
    }
}
