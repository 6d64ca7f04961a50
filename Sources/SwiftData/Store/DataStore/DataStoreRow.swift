/// A custom store's snapshot as a row the context reads.
struct DataStoreRow: StoreRow {
    let snapshot: DefaultSnapshot
    let entity: Schema.Entity

    var identifier: PersistentIdentifier { snapshot.persistentIdentifier }

    func holdsValue(of property: Schema.Entity.Property) -> Bool {
        guard !property.isRelationship, case .attribute? = snapshot.values[property.name] else { return false }
        return true
    }

    /// An attribute the snapshot does not hold reads its default value (`nil` when it is optional); a to-one
    /// relationship is a fault on the model the snapshot names; a to-many relationship loads when first read.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the property when the snapshot holds no value for
    ///   a required attribute without a default, or a value of another type.
    func value(of property: Schema.Entity.Property) throws -> Any {
        switch snapshot.values[property.name] {
        case .toOne(let target)?:
            return ModelStorage.ToOneFault(target: target)
        case .toMany?:
            return ModelStorage.UnloadedRelationship()
        case .attribute(let value)?:
            guard !property.isRelationship, type(of: value) == property.valueType else {
                throw mismatch(property, found: "a value of type \(type(of: value))")
            }
            return value
        case nil:
            if property.isRelationship {
                return property.relationshipInfo?.isToMany == true
                    ? ModelStorage.UnloadedRelationship() : ModelStorage.ToOneFault(target: nil)
            }
            guard !(property.unstoredValue is ModelStorage.Unset) else { throw mismatch(property, found: "no value") }
            return property.unstoredValue
        }
    }

    func retained() -> DataStoreRow { self }

    private func mismatch(_ property: Schema.Entity.Property, found: String) -> SwiftDataError {
        SwiftDataError(
            .loadIssueModelContainer,
            "the snapshot of \(identifier) holds \(found) for \(entity.name).\(property.name), of type "
                + "\(property.valueType)",
            entityName: entity.name)
    }
}

/// A custom store's save: committed when the store returned from `save(_:)`.
final class DataStoreAdapterSave: StoreSave {
    let store: any ModelStore
    /// The temporary identifiers of the inserted models, in order.
    private let inserted: [PersistentIdentifier]
    /// The permanent identifier the store gave each inserted model, by its temporary one.
    private let remapped: [PersistentIdentifier: PersistentIdentifier]

    let defect: SwiftDataError?
    /// The snapshots the store reregistered (`DataStoreSaveChangesResult.snapshotsToReregister`), as rows.
    let reregisteredRows: [any StoreRow]

    init(
        store: any ModelStore, inserted: [PersistentIdentifier], remapped: [PersistentIdentifier: PersistentIdentifier],
        reregisteredRows: [DataStoreRow], defect: SwiftDataError?
    ) {
        self.store = store
        self.inserted = inserted
        self.remapped = remapped
        self.reregisteredRows = reregisteredRows
        self.defect = defect
    }

    /// The identifier the store gave the inserted model; a store that gave none keeps the model's identifier.
    func identifierOfInserted(at position: Int, entity: Schema.Entity) -> PersistentIdentifier {
        remapped[inserted[position]] ?? inserted[position]
    }

    func commit() throws {}

    func rollBack() {}
}
