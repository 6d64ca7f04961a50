/// One row a store read, with its values decoded for the model of the row.
///
/// A row handed to `ModelStore.readRows(_:_:)`'s body may be valid only during that call; `retained()` gives one
/// that stays valid.
package protocol StoreRow {
    /// The identifier of the row's model.
    var identifier: PersistentIdentifier { get }
    /// The row's own entity: in an inheritance hierarchy, the class of the row, which may be a subclass of the
    /// entity the read asked for.
    var entity: Schema.Entity { get }
    /// True when the row holds a value of a property of `entity`: an attribute the store keeps and the read loaded.
    func holdsValue(of property: Schema.Entity.Property) -> Bool
    /// A property's value, in the form a model's slot holds it: an attribute's Swift value (or
    /// `ModelStorage.NotFetched` when the read left it out), a to-one relationship stored in the row as a
    /// `ModelStorage.ToOneFault`, any other relationship as `ModelStorage.UnloadedRelationship`.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the property when its stored value does not fit
    ///   its type.
    func value(of property: Schema.Entity.Property) throws -> Any
    /// The slots of a new model of the row: `value(of:)` of each of the entity's properties, in order. A store
    /// makes them in one call, so a read of many rows costs one call into the store per row, not one per property.
    ///
    /// - Throws: what `value(of:)` throws.
    func slots() throws -> ModelSlots
    /// The target a to-one relationship stored in the row names, or nil: what `value(of:)` gives as a
    /// `ModelStorage.ToOneFault`, without wrapping it.
    ///
    /// - Throws: what `value(of:)` throws.
    func target(of property: Schema.Entity.Property) throws -> PersistentIdentifier?
    /// This row, valid after the read that gave it ends.
    func retained() -> Self
}

extension StoreRow {
    package func target(of property: Schema.Entity.Property) throws -> PersistentIdentifier? {
        (try value(of: property) as? ModelStorage.ToOneFault)?.target
    }

    package func slots() throws -> ModelSlots {
        let properties = entity.persistedProperties
        return try ModelSlots(count: properties.count) { try value(of: properties[$0]) }
    }
}
