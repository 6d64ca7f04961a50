internal import Foundation

/// Reads what other processes and containers committed to a container's stores, from each store's history: the
/// transactions after the last one the reader saw. What `ResultsObserver` and `HistoryObserver` do when the
/// container posts `ModelContainer.remoteChange`.
final class RemoteTransactionReader: Sendable {
    private let histories: [String: any StoreHistory]
    /// The stores whose histories the reader reads, by identifier, which make their identifiers' scopes.
    private let stores: [String: any ModelStore]
    /// The newest token seen, by store identifier.
    private let positions: Locked<[String: Int64]>

    /// A reader of the stores of `container` that keep history, starting after the given tokens, or after each
    /// store's newest transaction for a store without one.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming a store whose history cannot be read.
    init(container: ModelContainer, startingAfter tokens: [String: Int64] = [:]) throws {
        var histories: [String: any StoreHistory] = [:]
        var stores: [String: any ModelStore] = [:]
        var positions: [String: Int64] = [:]
        for store in container.stores {
            guard let history = store.recordedHistory else { continue }
            histories[store.identifier] = history
            stores[store.identifier] = store
            positions[store.identifier] = try tokens[store.identifier] ?? history.newestToken()
        }
        self.histories = histories
        self.stores = stores
        self.positions = Locked(positions)
    }

    /// The newest token seen, by store identifier.
    var tokens: [String: Int64] { positions.withLock { $0 } }

    /// What a read of a store's new transactions found.
    struct NewTransactions {
        /// The transactions other containers and processes committed, in order.
        var transactions: [RecordedTransaction]
        /// False when some transactions after the reader's place were deleted before it read them: what they
        /// changed is not known.
        var isComplete: Bool
    }

    /// The transactions others committed to a store since the reader last looked, in order, and moves past them.
    /// This container's own transactions are left out: its contexts announced them when they saved.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the store when its history cannot be read; the
    ///   reader stays where it was, so the next read tries the same transactions again.
    func newTransactions(of storeIdentifier: String) throws -> NewTransactions {
        guard let history = histories[storeIdentifier] else {
            return NewTransactions(transactions: [], isComplete: true)
        }
        // One read at a time per reader: two at once would both return the same transactions.
        return try positions.withLock { positions in
            let after = positions[storeIdentifier] ?? 0
            let (transactions, deletedThrough) = try history.transactions(after: after)
            let newest = max(transactions.last?.token ?? after, deletedThrough)
            positions[storeIdentifier] = max(after, newest)
            return NewTransactions(
                transactions: transactions.filter { !history.isOwnTransaction($0.token) },
                isComplete: deletedThrough <= after)
        }
    }

    /// A transaction's changes as a save of this process announces its own: the identifiers it inserted, updated
    /// and deleted, and the properties it updated, by entity.
    func savedChanges(of transaction: RecordedTransaction, storeIdentifier: String) -> SavedChanges {
        let store = stores[storeIdentifier]
        var inserted: Set<PersistentIdentifier> = []
        var updated: Set<PersistentIdentifier> = []
        var deleted: Set<PersistentIdentifier> = []
        var properties: [String: Set<String>] = [:]
        for group in transaction.changes.groups {
            let scope =
                store?.identifierScope(entityName: group.entityName)
                ?? IdentifierScope(storeIdentifier: storeIdentifier, entityName: group.entityName)
            let identifiers = group.keys.map { PersistentIdentifier(scope: scope, primaryKey: $0) }
            switch group.kind {
            case .insert: inserted.formUnion(identifiers)
            case .update:
                updated.formUnion(identifiers)
                properties[group.entityName, default: []].formUnion(group.properties)
            case .delete: deleted.formUnion(identifiers)
            }
        }
        updated.subtract(deleted)
        return SavedChanges(
            insertedIdentifiers: inserted, updatedIdentifiers: updated, deletedIdentifiers: deleted,
            author: transaction.author, updatedProperties: properties)
    }
}
