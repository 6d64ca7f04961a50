internal import Foundation

extension ModelContext {
    /// The transactions of the container's stores that a descriptor selects: the changes saves wrote, one
    /// transaction per save and store.
    ///
    /// Every save through the built-in SQLite store records a ``DefaultHistoryTransaction`` in the same database
    /// transaction as the data, so history never holds a save that did not happen, nor misses one that did —
    /// whichever context, actor or process saved. A custom store answers for its own transaction type (see
    /// ``HistoryProviding``).
    ///
    /// ```swift
    /// let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
    ///     predicate: #Predicate { $0.token > lastToken })
    /// for transaction in try context.fetchHistory(descriptor) {
    ///     lastToken = transaction.token
    /// }
    /// ```
    ///
    /// The predicate and sort are evaluated in memory, with Swift's semantics, over the transactions the stores
    /// kept: delete the history you have processed (`deleteHistory(_:)`), or it grows with every save. Without
    /// `sortBy`, transactions come in the order their stores recorded them (by time across stores).
    ///
    /// - Throws: `SwiftDataError.historyTokenExpired` when the predicate names a token of a store that deleted part
    ///   of its history after that token (fetch from a newer token, or from the start);
    ///   `SwiftDataError.invalidTransactionFetchRequest` when no store of the container records transactions of
    ///   type `T`; `SwiftDataError.loadIssueModelContainer` when a store's history cannot be read.
    public func fetchHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws -> [T] {
        if let descriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> {
            return try selectedTransactions(descriptor, checkingTokens: true).map(\.transaction) as! [T]
        }
        var found: [T]?
        for store in container.stores {
            guard let transactions = try store.fetchHistory(descriptor) else { continue }
            found = (found ?? []) + transactions
        }
        guard let found else { throw Self.noHistory(of: T.self) }
        return found
    }

    /// Deletes the transactions of the container's stores that a descriptor selects.
    ///
    /// History grows with every save until you delete it. Delete what every reader has processed, for example
    /// everything up to the last token you handled:
    ///
    /// ```swift
    /// try context.deleteHistory(
    ///     HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= lastToken }))
    /// ```
    ///
    /// A later fetch whose predicate names a token older than a deleted transaction throws
    /// `SwiftDataError.historyTokenExpired`: part of what came after that token is gone.
    ///
    /// - Throws: `SwiftDataError.invalidTransactionFetchRequest` when no store records transactions of type `T`;
    ///   `SwiftDataError.loadIssueModelContainer` when a store's history cannot be written (a store opened with
    ///   `allowsSave: false`, say).
    public func deleteHistory<T: HistoryTransaction>(_ descriptor: HistoryDescriptor<T>) throws {
        if let descriptor = descriptor as? HistoryDescriptor<DefaultHistoryTransaction> {
            let selected = try selectedTransactions(descriptor, checkingTokens: false)
            for (position, store) in container.stores.enumerated() {
                let tokens = selected.filter { $0.store == position }.map(\.transaction.transactionIdentifier)
                if !tokens.isEmpty { try store.recordedHistory?.deleteTransactions(tokens) }
            }
            return
        }
        var deleted = false
        for store in container.stores where try store.deleteHistory(descriptor) { deleted = true }
        if !deleted { throw Self.noHistory(of: T.self) }
    }

    /// The transactions of the built-in stores a descriptor selects, with the position of each one's store.
    private func selectedTransactions(
        _ descriptor: HistoryDescriptor<DefaultHistoryTransaction>, checkingTokens: Bool
    ) throws -> [(store: Int, transaction: DefaultHistoryTransaction)] {
        let named = checkingTokens ? HistoryTokens(in: descriptor.predicate) : HistoryTokens()
        var selected: [(store: Int, transaction: DefaultHistoryTransaction)] = []
        var recordsHistory = false
        for (position, store) in container.stores.enumerated() {
            guard let history = store.recordedHistory else { continue }
            recordsHistory = true
            let (recorded, deletedThrough) = try history.transactions(after: nil)
            if let token = named.oldest(in: store.identifier), token < deletedThrough {
                throw SwiftDataError(
                    .historyTokenExpired,
                    "the history of the store '\(store.name)' after token \(token) was deleted, through token "
                        + "\(deletedThrough): fetch from a newer token, or from the start")
            }
            for transaction in recorded {
                let converted = defaultTransaction(transaction, of: store)
                if let predicate = descriptor.predicate, try !predicate.evaluate(converted) { continue }
                selected.append((position, converted))
            }
        }
        // Only custom stores, none of which records default transactions.
        if !recordsHistory { throw Self.noHistory(of: DefaultHistoryTransaction.self) }
        if descriptor.sortBy.isEmpty {
            if container.stores.count > 1 {
                selected.sort {
                    ($0.transaction.timestamp, $0.store, $0.transaction.transactionIdentifier) < (
                        $1.transaction.timestamp, $1.store, $1.transaction.transactionIdentifier
                    )
                }
            }
        } else {
            // Stable: transactions the descriptors leave tied keep the order they were recorded in.
            let order = descriptor.sortBy
            selected = selected.enumerated().sorted { lhs, rhs in
                for sort in order {
                    switch sort.compare(lhs.element.transaction, rhs.element.transaction) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return lhs.offset < rhs.offset
            }.map(\.element)
        }
        if descriptor.fetchLimit > 0, UInt64(selected.count) > descriptor.fetchLimit {
            selected.removeLast(selected.count - Int(descriptor.fetchLimit))
        }
        return selected
    }

    /// A store's recorded transaction as a `DefaultHistoryTransaction`. Changes of entities the container's schema
    /// does not know (a class since removed) are left out: no model type can describe them.
    private func defaultTransaction(_ recorded: RecordedTransaction, of store: any ModelStore)
        -> DefaultHistoryTransaction
    {
        var changes: [HistoryChange] = []
        changes.reserveCapacity(recorded.changes.count)
        var ordinal: Int64 = 0
        for group in recorded.changes.groups {
            guard let entity = container.schema.modelEntitiesByName[group.entityName], let type = entity.modelType
            else {
                ordinal += Int64(group.keys.count)
                continue
            }
            changes += HistoryChangeMaker(
                entity: entity, group: group, scope: store.identifierScope(entityName: entity.name),
                token: recorded.token, firstOrdinal: ordinal
            ).changes(of: type)
            ordinal += Int64(group.keys.count)
        }
        return DefaultHistoryTransaction(
            author: recorded.author, bundleIdentifier: recorded.bundleIdentifier, changes: changes,
            processIdentifier: recorded.processIdentifier, storeIdentifier: store.identifier,
            timestamp: recorded.timestamp,
            token: DefaultHistoryToken(storeIdentifier: store.identifier, value: recorded.token),
            transactionIdentifier: recorded.token)
    }

    private static func noHistory(of type: Any.Type) -> SwiftDataError {
        SwiftDataError(
            .invalidTransactionFetchRequest, "no store of the container records history transactions of type \(type)")
    }
}
