/// The changes a live query has been told of and not applied yet.
///
/// Saves of other contexts and commits of other processes arrive on their own threads, so this part is locked;
/// the query applies it on its own actor (see `ResultsObserver`).
final class ObservedChanges: Sendable {
    struct Pending {
        /// Models whose membership or place in the results may have changed.
        var identifiers: Set<PersistentIdentifier> = []
        /// Models whose rows others deleted: gone from the results even while the context holds them with unsaved
        /// changes, as a fetch no longer finds their rows.
        var deleted: Set<PersistentIdentifier> = []
        /// True when only a refetch can tell what changed.
        var needsRefetch = false
        /// True when the query's context has saves of others to merge, which update the models it shows.
        var needsMerge = false
        /// True when an update is scheduled, or, without an actor, when the next read must bring the results up
        /// to date.
        var isScheduled = false

        var changesResults: Bool { needsRefetch || !identifiers.isEmpty }
    }

    /// More models than this to look at one by one, and a refetch costs less.
    static let identifierLimit = 256

    private let state = Locked(Pending())

    /// What adding changes asks of the observer.
    struct Arrival {
        /// True when no update was scheduled: the caller schedules one.
        var startsUpdate = false
        /// True when the changes may change the results, not only the models they show.
        var changesResults = false
    }

    /// Adds what a save or commit changed.
    func add(
        identifiers: some Collection<PersistentIdentifier>, deleted: some Collection<PersistentIdentifier> = [],
        needsRefetch: Bool, needsMerge: Bool
    ) -> Arrival {
        let changesResults = needsRefetch || !identifiers.isEmpty
        return state.withLock { pending in
            pending.identifiers.formUnion(identifiers)
            pending.deleted.formUnion(deleted)
            if pending.identifiers.count > Self.identifierLimit {
                pending.identifiers = []
                pending.needsRefetch = true
            }
            pending.needsRefetch = pending.needsRefetch || needsRefetch
            pending.needsMerge = pending.needsMerge || needsMerge
            guard !pending.isScheduled, pending.changesResults || pending.needsMerge else {
                return Arrival(changesResults: changesResults)
            }
            pending.isScheduled = true
            return Arrival(startsUpdate: true, changesResults: changesResults)
        }
    }

    /// Marks an update as scheduled. Returns false when one already was.
    func schedule() -> Bool {
        state.withLock { pending in
            guard !pending.isScheduled else { return false }
            pending.isScheduled = true
            return true
        }
    }

    /// True when an update is scheduled and has not run yet.
    var isScheduled: Bool { state.withLock { $0.isScheduled } }

    /// Takes what is pending, and ends the scheduled update.
    func take() -> Pending {
        state.withLock { pending in
            defer { pending = Pending() }
            return pending
        }
    }
}
