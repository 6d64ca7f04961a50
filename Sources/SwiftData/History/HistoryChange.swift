/// One change of a history transaction: a model inserted, updated or deleted.
///
/// Cast the associated value to the default change type of the model you care about:
///
/// ```swift
/// for change in transaction.changes {
///     if case .update(let update) = change, let tripUpdate = update as? DefaultHistoryUpdate<Trip> {
///         print(tripUpdate.updatedAttributes)
///     }
/// }
/// ```
public enum HistoryChange: Sendable {
    /// A model the transaction inserted.
    case insert(any HistoryInsert)
    /// A model the transaction updated.
    case update(any HistoryUpdate)
    /// A model the transaction deleted.
    case delete(any HistoryDelete)

    /// The identifier of the model the change is about.
    public var changedPersistentIdentifier: PersistentIdentifier {
        switch self {
        case .insert(let insert): insert.changedPersistentIdentifier
        case .update(let update): update.changedPersistentIdentifier
        case .delete(let delete): delete.changedPersistentIdentifier
        }
    }
}
