internal import Synchronization

/// A change a context made in memory that a live query may need to see: what `ResultsObserver` follows between
/// saves.
enum LocalChange {
    /// A model entered the context: a new model inserted, or a deletion cancelled.
    case inserted(ModelStorage)
    /// A model was marked for deletion, or a new model discarded.
    case deleted(ModelStorage)
    /// One property of a model in the context changed.
    case changed(ModelStorage, slot: Int)
    /// A model took the values its row holds now, after its own changes were saved or rolled back.
    case refreshed(ModelStorage)
    /// Rows of an entity were deleted without loading their models (`delete(model:where:)`).
    case rowsDeleted(Schema.Entity)
    /// Every pending change was discarded (`rollback()`).
    case rolledBack
}

/// What a context tells of its in-memory changes.
protocol LocalChangeObserver: AnyObject {
    func contextDidChange(_ change: LocalChange)
}

/// The observers of a context's in-memory changes, held weakly: an observer that goes away stops being told.
struct LocalChangeObservers {
    private struct Entry {
        weak var observer: (any LocalChangeObserver)?
    }

    private var entries: [Entry] = []

    /// How many observers of in-memory changes exist in the process. A property's setter asks its context for
    /// observers only when there are some anywhere: reading the context's weak reference on every write would
    /// cost the writes of programs that observe nothing.
    static let liveCount = Atomic<Int>(0)

    var isEmpty: Bool { entries.isEmpty }

    mutating func add(_ observer: any LocalChangeObserver) {
        entries.removeAll { $0.observer == nil }
        entries.append(Entry(observer: observer))
    }

    /// Drops the entries of observers that were released.
    mutating func removeReleased() {
        entries.removeAll { $0.observer == nil }
    }

    /// Tells every observer of a change. Returns true when some observer was released: its entry can go.
    func notify(_ change: LocalChange) -> Bool {
        var hasReleased = false
        for entry in entries {
            if let observer = entry.observer { observer.contextDidChange(change) } else { hasReleased = true }
        }
        return hasReleased
    }
}

extension ModelContext {
    /// Tells the observers of this context's in-memory changes of one.
    func noteLocalChange(_ change: LocalChange) {
        // Without an observer anywhere in the process, the context's list is not read: reading it is an access the
        // run time checks, on every insert of programs that observe nothing.
        guard LocalChangeObservers.liveCount.load(ordering: .relaxed) > 0, !localChangeObservers.isEmpty else {
            return
        }
        // A copy: an observer told of the change may add another (a new live query made in its handler).
        let observers = localChangeObservers
        if observers.notify(change) { localChangeObservers.removeReleased() }
    }
}

extension ModelStorage {
    /// Tells the model's context that a property changed, when something in the process follows such changes.
    @inline(__always)
    final func noteChangeForObservers(at index: Int) {
        guard LocalChangeObservers.liveCount.load(ordering: .relaxed) > 0, model != nil, let context else { return }
        context.noteLocalChange(.changed(self, slot: index))
    }
}
