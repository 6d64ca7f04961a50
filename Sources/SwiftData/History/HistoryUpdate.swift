/// A model's update, as history recorded it: which of its properties changed, not their values.
public protocol HistoryUpdate<Model>: Sendable {
    /// The class of the updated model.
    associatedtype Model: PersistentModel
    /// The type that identifies a change within its store.
    associatedtype ChangeIdentifier: Comparable, Hashable, Sendable
    /// The type that identifies a transaction within its store.
    associatedtype TransactionIdentifier: Comparable, Hashable, Sendable
    /// A key path of a changed property.
    typealias PropertyUpdate = PartialKeyPath<Model> & Sendable

    /// The change's identifier within its store.
    var changeIdentifier: ChangeIdentifier { get }
    /// The identifier of the updated model.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The identifier of the transaction that holds the change.
    var transactionIdentifier: TransactionIdentifier { get }
    /// The key paths of the properties the save changed.
    var updatedAttributes: [any PartialKeyPath<Model> & Sendable] { get }
}
