/// A model's insertion, as history recorded it.
public protocol HistoryInsert<Model>: Sendable {
    /// The class of the inserted model.
    associatedtype Model: PersistentModel
    /// The type that identifies a change within its store.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type that identifies a transaction within its store.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The change's identifier within its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the inserted model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
}
