/// What one save wrote: the identifiers of the models it inserted, updated and deleted.
///
/// An addition to Apple's API, for code that prefers an `AsyncSequence` to `ModelContext.didSave` notifications:
///
/// ```swift
/// for await changes in container.savedChanges() {
///     print("inserted \(changes.insertedIdentifiers.count) models")
/// }
/// ```
public struct SavedChanges: Hashable, Sendable {
    /// The models the save inserted.
    public let insertedIdentifiers: Set<PersistentIdentifier>
    /// The models the save changed.
    public let updatedIdentifiers: Set<PersistentIdentifier>
    /// The models the save deleted.
    public let deletedIdentifiers: Set<PersistentIdentifier>
    /// The author of the context that saved.
    public let author: String?
}

/// Carries each save of a container to its other contexts and to `savedChanges()` subscribers.
final class ChangeBroadcaster: Sendable {
    private struct State {
        var inboxes: [ObjectIdentifier: WeakInbox] = [:]
        var subscribers: [UUID: AsyncStream<SavedChanges>.Continuation] = [:]
    }

    private let state = Locked(State())

    /// Registers a context's inbox; the inbox is dropped when its context is released.
    func register(_ inbox: ChangeInbox) {
        state.withLock { $0.inboxes[ObjectIdentifier(inbox)] = WeakInbox(inbox: inbox) }
    }

    /// Delivers a save to every other context's inbox and to every subscriber. The changes are made only when
    /// someone receives them: a save of many models in a container with one context skips hashing their
    /// identifiers into sets.
    func broadcast(from sender: ChangeInbox, _ makeChanges: () -> SavedChanges) {
        let (inboxes, subscribers) = state.withLock { state in
            state.inboxes = state.inboxes.filter { $0.value.inbox != nil }
            return (state.inboxes.values.compactMap(\.inbox).filter { $0 !== sender }, Array(state.subscribers.values))
        }
        guard !inboxes.isEmpty || !subscribers.isEmpty else { return }
        let changes = makeChanges()
        for inbox in inboxes { inbox.post(changes) }
        for subscriber in subscribers { subscriber.yield(changes) }
    }

    /// A new stream of every later save.
    func subscribe() -> AsyncStream<SavedChanges> {
        let (stream, continuation) = AsyncStream<SavedChanges>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    private struct WeakInbox {
        weak var inbox: ChangeInbox?
    }
}

/// The saves of other contexts that a context has not applied yet.
final class ChangeInbox: Sendable {
    private let pending = Locked<[SavedChanges]>([])

    func post(_ changes: SavedChanges) { pending.withLock { $0.append(changes) } }

    /// Takes every pending save, oldest first.
    func drain() -> [SavedChanges] {
        pending.withLock { changes in
            defer { changes = [] }; return changes
        }
    }
}

extension ModelContainer {
    /// A stream of every save any context of this container makes from now on.
    ///
    /// An addition to Apple's API. Each call returns a new stream; it ends when the task iterating it is cancelled.
    public func savedChanges() -> AsyncStream<SavedChanges> {
        broadcaster.subscribe()
    }
}
