/// A model's insertion, as the built-in stores record it.
public struct DefaultHistoryInsert<Model: PersistentModel>: HistoryInsert, Hashable, DefaultHistoryChangeIdentity {
    /// Identifies a change within its store: later changes have greater identifiers.
    public typealias ChangeIdentifier = Int64
    /// Identifies a transaction within its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier within its store.
    public let changeIdentifier: ChangeIdentifier
    /// The identifier of the inserted model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The identifier of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier
}
