/// A model's update, as the built-in stores record it: which properties the save changed.
public struct DefaultHistoryUpdate<Model: PersistentModel>: HistoryUpdate, Hashable, DefaultHistoryChangeIdentity {
    /// Identifies a change within its store: later changes have greater identifiers.
    public typealias ChangeIdentifier = Int64
    /// Identifies a transaction within its store.
    public typealias TransactionIdentifier = Int64

    /// The change's identifier within its store.
    public let changeIdentifier: ChangeIdentifier
    /// The identifier of the updated model.
    public let changedPersistentIdentifier: PersistentIdentifier
    /// The identifier of the transaction that holds the change.
    public let transactionIdentifier: TransactionIdentifier
    /// The key paths of the properties the save changed, attributes and relationships, in declaration order.
    ///
    /// Every key path is rooted at `Model`, the updated model's own class, inherited properties included: for a
    /// `Truck` that inherits `name` from `Vehicle`, it is `\Truck.name`, which compares equal to the `\Truck.name`
    /// you write, and not `\Vehicle.name`, a different key path. A class adopting `PersistentModel` without `@Model`
    /// leaves out properties it inherits.
    public let updatedAttributes: [any PartialKeyPath<Model> & Sendable]

    /// True when the save changed the property at a key path.
    ///
    /// The key path is compared with `==` to those of ``updatedAttributes``, which are rooted at `Model`: for an
    /// update of a `Truck`, `containsAttribute(\.name)` (that is, `\Truck.name`) is true when the save changed
    /// `name`, also when `Truck` inherits `name` from `Vehicle`.
    ///
    /// ```swift
    /// if case .update(let update as DefaultHistoryUpdate<Truck>) = change, update.containsAttribute(\.name) {
    ///     print("renamed", update.changedPersistentIdentifier)
    /// }
    /// ```
    public func containsAttribute(_ keyPath: any PartialKeyPath<Model> & Sendable) -> Bool {
        updatedAttributes.contains { $0 == keyPath }
    }

}
