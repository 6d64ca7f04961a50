/// What makes the built-in stores' history changes the same change: their identifiers, not their payloads (the
/// changed properties' key paths, a tombstone's values), which carry no equality of their own.
protocol DefaultHistoryChangeIdentity: Hashable {
    var changeIdentifier: Int64 { get }
    var changedPersistentIdentifier: PersistentIdentifier { get }
    var transactionIdentifier: Int64 { get }
}

extension DefaultHistoryChangeIdentity {
    /// Equal when they are the same change of the same store's history.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.changeIdentifier == rhs.changeIdentifier && lhs.transactionIdentifier == rhs.transactionIdentifier
            && lhs.changedPersistentIdentifier == rhs.changedPersistentIdentifier
    }

    /// Hashes the change's identifiers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeIdentifier)
        hasher.combine(changedPersistentIdentifier)
    }
}
