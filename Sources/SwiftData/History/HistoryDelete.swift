/// A model's deletion, as history recorded it, with the values the model's class asked to keep.
public protocol HistoryDelete<Model>: Sendable {
    /// The class of the deleted model.
    associatedtype Model: PersistentModel
    /// The type that identifies a change within its store.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type that identifies a transaction within its store.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable

    /// The change's identifier within its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier the deleted model had.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The values of the deleted model's attributes declared with `.preserveValueOnDeletion`.
    var tombstone: HistoryTombstone<Model> { get }
}
