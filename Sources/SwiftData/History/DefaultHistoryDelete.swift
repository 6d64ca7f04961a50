/// A model's deletion, as the built-in stores record it, with the values its `.preserveValueOnDeletion`
/// attributes had.
public struct DefaultHistoryDelete<Model: PersistentModel>: HistoryDelete, Hashable, DefaultHistoryChangeIdentity {
    /// Identifies a change within its store: later changes have greater identifiers.
    public typealias ChangeIdentifier = Int64
    /// Identifies a transaction within its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier within its store.
    public let changeIdentifier: ChangeIdentifier
    /// The identifier the deleted model had.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The values of the deleted model's attributes declared with `.preserveValueOnDeletion`.
    public let tombstone: HistoryTombstone<Model>
    /// The identifier of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier

}
