public import Foundation

/// A group of changes a store recorded together: the changes one save wrote to one store.
///
/// Fetch transactions with `ModelContext.fetchHistory(_:)`. The built-in stores record ``DefaultHistoryTransaction``
/// values; a custom store that adopts ``HistoryProviding`` records transactions of its own type.
public protocol HistoryTransaction: Hashable, Identifiable, Sendable {
    /// The type of the token that marks the transaction's place in its store's history.
    associatedtype TokenType: Comparable, Hashable, Identifiable, Sendable
    /// The type that identifies a transaction within its store.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The author of the context that saved the changes (`ModelContext.author`), or nil.
    var author: String? { get }
    /// The changes, in the order the store recorded them.
    var changes: [HistoryChange] { get }
    /// The identifier of the store that recorded the transaction.
    var storeIdentifier: String { get }
    /// When the store recorded the transaction.
    var timestamp: Date { get }
    /// The transaction's place in its store's history: keep it to fetch only what came after.
    var token: TokenType { get }
    /// The transaction's identifier within its store.
    var transactionIdentifier: TransactionIdentifier { get }
}
