import Foundation

/// What a subscriber received, collected under a lock so tests can wait on it from their thread.
final class Inbox<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []

    func append(_ item: Item) { lock.withLock { items.append(item) } }

    var all: [Item] { lock.withLock { items } }
    var count: Int { lock.withLock { items.count } }
}
