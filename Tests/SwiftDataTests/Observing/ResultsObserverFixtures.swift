import Foundation
import Testing

@testable import SwiftData

@Model
final class LRTask {
    var title: String
    var isDone: Bool
    var priority: Int
    var category: String
    var group: String?
    /// Read by no predicate or sort of the tests: changing it cannot change any results.
    var notes: String
    var list: LRList?

    init(
        title: String, isDone: Bool = false, priority: Int = 0, category: String = "inbox", group: String? = nil,
        notes: String = ""
    ) {
        self.title = title
        self.isDone = isDone
        self.priority = priority
        self.category = category
        self.group = group
        self.notes = notes
    }
}

@Model
final class LRList {
    var name: String
    @Relationship(inverse: \LRTask.list) var tasks: [LRTask] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class LRNote {
    var text: String

    init(text: String) {
        self.text = text
    }
}

/// Waits up to ten seconds for a condition that another task or thread makes true, checking it on the main actor.
@MainActor func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await _Concurrency.Task.sleep(for: .milliseconds(25))
    }
    return condition()
}

/// Counts the times Observation tells that a value read in `read` changes, re-registering after each.
final class ChangeCounter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`; `read` is called on the observer's actor only.
    private let lock = NSLock()
    private var changes = 0
    private let read: () -> Void

    init(_ read: @escaping () -> Void) {
        self.read = read
        track()
    }

    var count: Int { lock.withLock { changes } }

    private func track() {
        withObservationTracking(read) { [self] in
            lock.withLock { changes += 1 }
        }
    }

    /// Registers again after a change: Observation tells of one change per registration.
    func rearm() { track() }
}

/// The titles of an observer's results, in order.
func titles<Title>(_ observer: ResultsObserver<LRTask, Title>) -> [String] {
    observer.results.map(\.title)
}
