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
    /// The names of the properties the save changed, by entity name, or nil when not known: what live queries use
    /// to tell whether an update can change their results. Made only when a live query listens.
    var updatedProperties: [String: Set<String>]? = nil
    /// True when some inserted model's entity has uniqueness constraints: an insert may have overwritten a stored
    /// row (an upsert), whose models other contexts hold must take the saved values.
    var insertsMayOverwrite = false
}

/// Something in the process that follows every save of a container, the saving context's own included: live
/// queries. Held weakly by the broadcaster.
final class SaveListener: Sendable {
    /// Called on the saving context's thread, once the save has committed, with the save and the saving context's
    /// inbox (which tells the listener's own context's saves from others').
    let receive: @Sendable (SavedChanges, _ sender: ChangeInbox) -> Void
    /// Called when every row of some stores was deleted (`deleteAllData()`, `erase()`).
    let storesEmptied: @Sendable () -> Void

    init(
        receive: @escaping @Sendable (SavedChanges, _ sender: ChangeInbox) -> Void,
        storesEmptied: @escaping @Sendable () -> Void
    ) {
        self.receive = receive
        self.storesEmptied = storesEmptied
    }
}

/// Carries each save of a container to its other contexts and to `savedChanges()` subscribers.
final class ChangeBroadcaster: Sendable {
    private struct State {
        var inboxes: [ObjectIdentifier: WeakInbox] = [:]
        var subscribers: [UUID: AsyncStream<SavedChanges>.Continuation] = [:]
        var listeners: [ObjectIdentifier: WeakListener] = [:]
    }

    private let state = Locked(State())
    /// How many saves a `savedChanges()` stream keeps for a consumer that has not read them yet.
    static let bufferedSaves = 256

    /// Registers a context's inbox; the inbox is dropped when its context is released.
    func register(_ inbox: ChangeInbox) {
        state.withLock { $0.inboxes[ObjectIdentifier(inbox)] = WeakInbox(inbox: inbox) }
    }

    /// Registers a listener of every save; it is dropped when released.
    func register(_ listener: SaveListener) {
        state.withLock { $0.listeners[ObjectIdentifier(listener)] = WeakListener(listener: listener) }
    }

    /// True when a listener follows the saves, and wants to know which properties they changed.
    var hasListeners: Bool {
        state.withLock { state in state.listeners.values.contains { $0.listener != nil } }
    }

    /// Delivers a save to every other context's inbox, to every subscriber and to every listener. The changes are
    /// made only when someone receives them: a save of many models in a container with one context skips hashing
    /// their identifiers into sets.
    func broadcast(from sender: ChangeInbox, _ makeChanges: () -> SavedChanges) {
        let (inboxes, subscribers, listeners) = state.withLock { state in
            state.inboxes = state.inboxes.filter { $0.value.inbox != nil }
            state.listeners = state.listeners.filter { $0.value.listener != nil }
            return (
                state.inboxes.values.compactMap(\.inbox).filter { $0 !== sender }, Array(state.subscribers.values),
                state.listeners.values.compactMap(\.listener)
            )
        }
        guard !inboxes.isEmpty || !subscribers.isEmpty || !listeners.isEmpty else { return }
        let changes = makeChanges()
        for inbox in inboxes { inbox.post(changes) }
        for subscriber in subscribers { subscriber.yield(changes) }
        for listener in listeners { listener.receive(changes, sender) }
    }

    /// Tells every context that every row of the stores with these identifiers was deleted; tells nothing when
    /// there are none.
    func invalidateAll(storeIdentifiers: Set<String>) {
        guard !storeIdentifiers.isEmpty else { return }
        let (inboxes, listeners) = state.withLock { state in
            state.inboxes = state.inboxes.filter { $0.value.inbox != nil }
            return (state.inboxes.values.compactMap(\.inbox), state.listeners.values.compactMap(\.listener))
        }
        for inbox in inboxes { inbox.invalidateAll(storeIdentifiers: storeIdentifiers) }
        for listener in listeners { listener.storesEmptied() }
    }

    /// A new stream of every later save.
    func subscribe() -> AsyncStream<SavedChanges> {
        let (stream, continuation) = AsyncStream<SavedChanges>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.bufferedSaves))
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

    private struct WeakListener {
        weak var listener: SaveListener?
    }
}

/// The saves of other contexts that a context has not applied yet, merged into the identifiers they updated and
/// deleted, which is all the merge needs.
///
/// A context applies its inbox when it fetches or saves; one that does neither must not hold every save forever.
/// Merging keeps one entry per model however often it is saved, and past `limit` identifiers the inbox keeps none:
/// it notes that the context must re-read every model it holds, which gives the same result.
final class ChangeInbox: Sendable {
    /// What the context has to apply.
    struct Pending {
        var updated: Set<PersistentIdentifier> = []
        var deleted: Set<PersistentIdentifier> = []
        /// True when more identifiers arrived than the limit: re-read every registered model instead.
        var refreshesEverything = false
        /// The identifiers of the stores whose rows were all deleted (`deleteAllData()`, `erase()`): the models the
        /// context holds from them are invalid, which it announces.
        var invalidatedStores: Set<String> = []

        var isEmpty: Bool { updated.isEmpty && deleted.isEmpty && !refreshesEverything }
    }

    private struct State {
        var pending = Pending()
        var limit = 10_000
    }

    private let state = Locked(State())

    /// The most identifiers the inbox keeps before it asks for a refresh of every model.
    var limit: Int {
        get { state.withLock { $0.limit } }
        set { state.withLock { $0.limit = newValue } }
    }

    /// How many identifiers the inbox holds, for tests that check it stays bounded.
    var heldIdentifierCount: Int { state.withLock { $0.pending.updated.count + $0.pending.deleted.count } }

    /// Merges a save: a model deleted after an update counts as deleted only. Inserted models are left out, since
    /// no other context holds them yet.
    func post(_ changes: SavedChanges) {
        state.withLock { state in
            guard !state.pending.refreshesEverything else { return }
            state.pending.updated.formUnion(changes.updatedIdentifiers)
            // An insert that overwrote a stored row updated that row.
            if changes.insertsMayOverwrite { state.pending.updated.formUnion(changes.insertedIdentifiers) }
            state.pending.updated.subtract(changes.deletedIdentifiers)
            state.pending.deleted.formUnion(changes.deletedIdentifiers)
            if state.pending.updated.count + state.pending.deleted.count > state.limit {
                state.pending = Pending(refreshesEverything: true)
            }
        }
    }

    /// Notes that every row of some stores was deleted: the context re-reads every model it holds, lets go of
    /// those of these stores whose rows are gone and announces them as invalid.
    func invalidateAll(storeIdentifiers: Set<String>) {
        state.withLock { state in
            let invalidated = state.pending.invalidatedStores.union(storeIdentifiers)
            state.pending = Pending(refreshesEverything: true, invalidatedStores: invalidated)
        }
    }

    /// Notes that saves arrived whose changes are not known: the context re-reads every model it holds.
    func refreshAll() {
        state.withLock { state in
            state.pending = Pending(refreshesEverything: true, invalidatedStores: state.pending.invalidatedStores)
        }
    }

    /// Takes what is pending and empties the inbox.
    func drain() -> Pending {
        state.withLock { state in
            defer { state.pending = Pending() }
            return state.pending
        }
    }
}

extension ModelContainer {
    /// A stream of every save any context of this container makes from now on.
    ///
    /// An addition to Apple's API. Each call returns a new stream; it ends when the task iterating it is cancelled.
    /// The stream keeps the newest 256 saves its consumer has not read yet: a consumer that falls further behind
    /// misses the oldest of them, so code that must see every change fetches again after a gap it cannot afford.
    public func savedChanges() -> AsyncStream<SavedChanges> {
        broadcaster.subscribe()
    }
}
