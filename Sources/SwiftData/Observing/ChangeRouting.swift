internal import Synchronization

/// Decides what a save or another process's commit means for a live query, on the thread that tells of it: which
/// models to look at again, whether only a refetch can tell, or nothing at all.
final class ChangeRouting: Sendable {
    /// What is pending for the query's next update.
    let changes = ObservedChanges()
    /// The query's context's inbox, which tells its own saves from others' and takes other processes' commits.
    let inbox: ChangeInbox
    private let includesPendingChanges: Bool
    private let readsState: Locked<ObservedReads>
    /// The table of each entity of the container, by entity name.
    private let tableByEntityName: [String: String]
    /// The tables with uniqueness constraints: a save there may merge an inserted model into a stored one.
    private let upsertingTables: Set<String>
    private let ignored = Atomic<Int>(0)

    init(reads: ObservedReads, includesPendingChanges: Bool, container: ModelContainer, inbox: ChangeInbox) {
        self.inbox = inbox
        self.includesPendingChanges = includesPendingChanges
        self.readsState = Locked(reads)
        let entities = container.schema.modelEntitiesByName.values
        tableByEntityName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.tableName) })
        upsertingTables = Set(entities.filter { !$0.uniquenessConstraints.isEmpty }.map(\.tableName))
    }

    /// What the query's results read.
    var reads: ObservedReads {
        get { readsState.withLock { $0 } }
        set { readsState.withLock { $0 = newValue } }
    }

    /// How many saves could not change the results.
    var savesIgnored: Int { ignored.load(ordering: .relaxed) }

    /// Notes what a save (or another process's commit, in the same form) means for the results.
    func route(_ saved: SavedChanges, isOwnSave: Bool) -> ObservedChanges.Arrival {
        let reads = self.reads
        // The results showed the context's own changes while they were pending (and the models its save refreshed
        // are told of as changes in the context); its save adds what the save itself did: deletions by delete
        // rules, links cleared by deletions, and inserts an upsert merged into stored rows.
        let showedOwnChanges = isOwnSave && includesPendingChanges
        if showedOwnChanges, saved.insertsMayOverwrite,
            saved.insertedIdentifiers.contains(where: { identifier in
                tableByEntityName[identifier.entityName].map {
                    upsertingTables.contains($0) && reads.isAffected(byChangeIn: $0, properties: nil)
                } ?? false
            })
        {
            // An inserted model merged into a stored one: two models of one row were shown, or the stored model the
            // results read took the inserted one's values.
            return changes.add(identifiers: [], needsRefetch: true, needsMerge: false)
        }
        var identifiers: [PersistentIdentifier] = []
        var deleted: [PersistentIdentifier] = []
        var needsRefetch = false
        func note(_ identifier: PersistentIdentifier, properties: Set<String>?, isDeleted: Bool = false) {
            guard let table = tableByEntityName[identifier.entityName],
                reads.isAffected(byChangeIn: table, properties: properties)
            else { return }
            guard table == reads.resultTable else {
                needsRefetch = true
                return
            }
            identifiers.append(identifier)
            if isDeleted { deleted.append(identifier) }
        }
        if !showedOwnChanges {
            for identifier in saved.insertedIdentifiers where !needsRefetch { note(identifier, properties: nil) }
        }
        for identifier in saved.deletedIdentifiers { note(identifier, properties: nil, isDeleted: !isOwnSave) }
        for identifier in saved.updatedIdentifiers where !needsRefetch {
            note(identifier, properties: saved.updatedProperties.map { $0[identifier.entityName] ?? [] })
        }
        if needsRefetch || identifiers.count > ObservedChanges.identifierLimit {
            identifiers = []
            needsRefetch = true
        }
        if !needsRefetch && identifiers.isEmpty { ignored.add(1, ordering: .relaxed) }
        // The context merges others' saves: the models it shows take their new values.
        return changes.add(
            identifiers: identifiers, deleted: deleted, needsRefetch: needsRefetch, needsMerge: !isOwnSave)
    }
}
