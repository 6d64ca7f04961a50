extension ModelContext {
    /// The models of the rows a read selects, in order: the models this context holds, refreshed as
    /// `materialize(_:)` refreshes them, and new models for the other rows.
    ///
    /// A row that no model holds is decoded into its new model's slots as the store hands it over, with no copy of
    /// its values in between (a store hands rows over during its read only when decoding runs no code of the app,
    /// which must not run while the store is busy). A held model's refresh notifies its observers, so it waits until
    /// the read is over, and until every new model is registered: an observer that fetches finds them rather than
    /// making second models of the same rows.
    ///
    /// - Throws: what the store throws; a row that fails to decode leaves no new model registered.
    func readModels(_ request: StoreReadRequest, from store: any ModelStore) throws -> [any PersistentModel] {
        try readModels(request, in: store, alsoReading: nil).models
    }

    /// `readModels(_:from:)`, with each row's stored state of a to-one relationship: the identifier of the target
    /// the row names, whatever unsaved change its model holds.
    func readModels(
        _ request: StoreReadRequest, from store: any ModelStore, withStoredTargetsOf property: Schema.Entity.Property
    ) throws -> (models: [any PersistentModel], targets: [PersistentIdentifier?]) {
        try readModels(request, in: store, alsoReading: property)
    }

    private func readModels<Store: ModelStore>(
        _ request: StoreReadRequest, in store: Store, alsoReading toOne: Schema.Entity.Property?
    ) throws -> (models: [any PersistentModel], targets: [PersistentIdentifier?]) {
        if request.properties != nil { holdsUnfetchedAttributes = true }
        let holdsModels = registered.count > 0
        let registrationsBefore = registered.registrations
        var identifiers: [PersistentIdentifier] = []
        var targets: [PersistentIdentifier?] = []
        // The slots of the new models, in order, and the rows of held models with their positions.
        var newModels: [(entity: Schema.Entity, slots: ModelSlots)] = []
        var heldRows: [(position: Int, row: Store.Row)] = []
        do {
            try store.readRows(request) { row in
                let identifier = row.identifier
                if let toOne {
                    // A row of a subclass numbers its properties its own way.
                    let own = row.entity === request.entity ? toOne : row.entity.property(named: toOne.name) ?? toOne
                    let stored = container.locatingTarget(of: try row.value(of: own), property: own)
                    targets.append((stored as? ModelStorage.ToOneFault)?.target)
                }
                if holdsModels, registered[identifier] != nil {
                    heldRows.append((identifiers.count, row.retained()))
                } else {
                    newModels.append((row.entity, try newSlots(of: row)))
                }
                identifiers.append(identifier)
            }
        } catch {
            for var new in newModels { new.slots.release() }
            throw error
        }
        // Unless decoding ran code of the app that registered models, the rows found unregistered still are.
        let isUnregistered = registered.registrations == registrationsBefore
        reserveRegistrations(newModels.count)
        func newModel(_ identifier: PersistentIdentifier, _ new: (entity: Schema.Entity, slots: ModelSlots))
            -> any PersistentModel
        {
            registerNewModel(
                entity: new.entity, identifier: identifier, slots: new.slots, isUnregistered: isUnregistered)
        }
        guard !heldRows.isEmpty else { return (zip(identifiers, newModels).map(newModel), targets) }
        var models: [(any PersistentModel)?] = Array(repeating: nil, count: identifiers.count)
        var nextNew = newModels.startIndex
        var nextHeld = heldRows.startIndex
        for position in identifiers.indices {
            if nextHeld < heldRows.endIndex, heldRows[nextHeld].position == position {
                nextHeld += 1
            } else {
                models[position] = newModel(identifiers[position], newModels[nextNew])
                nextNew += 1
            }
        }
        for (position, row) in heldRows {
            models[position] = try materialize(row)
        }
        return (models.map { $0! }, targets)
    }

    /// The slots of a new model of a row: each attribute's value, each relationship in its stored state.
    ///
    /// - Throws: what the row throws for a value that does not fit its property.
    func newSlots(of row: some StoreRow) throws -> ModelSlots {
        let entity = row.entity
        return try ModelSlots(count: entity.persistedProperties.count) { index -> Any in
            let property = entity.persistedProperties[index]
            let value = try row.value(of: property)
            guard container.hasLinksAcrossStores, property.isRelationship else { return value }
            return container.locatingTarget(of: value, property: property)
        }
    }

    /// The registered model for a row, refreshed with the row's values when it has no unsaved changes, or a new
    /// model registered with this context.
    ///
    /// - Throws: what the row throws for a value that does not fit its property.
    func materialize(_ row: some StoreRow) throws -> any PersistentModel {
        let entity = row.entity
        if let existing = registered[row.identifier]?.model {
            let storage = existing.storage
            // Each value is set inside `withMutation`, whose observers run before the value changes. One that
            // fetches the model again would refresh it again from the same row, notify itself again, and so on
            // until the stack overflows: a model being refreshed is left to the refresh in progress.
            if !storage.hasChanges && !storage.isDeleted && !storage.isRefreshing {
                storage.isRefreshing = true
                defer { storage.isRefreshing = false }
                for property in entity.persistedProperties where row.holdsValue(of: property) {
                    let value = try row.value(of: property)
                    if !isSameStoredValue(storage.values[property.index], value, codec: property.codec) {
                        storage.setObserved(property.index, value)
                    }
                }
            }
            return existing
        }
        return registerNewModel(
            entity: entity, identifier: row.identifier, slots: try newSlots(of: row), isUnregistered: false)
    }

    /// Makes the model of a row whose values are in `slots`, and registers it with this context. `isUnregistered`
    /// tells that no model of the row is registered, so the registry need not be searched.
    func registerNewModel(
        entity: Schema.Entity, identifier: PersistentIdentifier, slots: ModelSlots, isUnregistered: Bool
    ) -> any PersistentModel {
        let (model, storage) = entity.makeModel(identifier: identifier, slots: slots)
        storage.context = self
        if isUnregistered { registered.insertNew(storage) } else { registered.insert(storage) }
        // A row deleted without loading its model becomes an ordinary pending deletion once its model exists.
        if !batchDeletions.isEmpty, batchDeletions.remove(identifier, of: entity) {
            storage.isDeleted = true
            deleted.append(model)
        }
        return model
    }

    /// True when two values of an attribute store the same way, so replacing one with the other changes nothing.
    private func isSameStoredValue(_ current: Any, _ new: Any, codec: ValueCodec?) -> Bool {
        guard let codec, !(current is ModelStorage.NotFetched), !(current is ModelStorage.Unset) else { return false }
        return (try? codec.encodeColumns(current)) == (try? codec.encodeColumns(new))
    }

    /// Makes room for `count` registrations at once, so a large fetch does not rehash the registry again and again.
    func reserveRegistrations(_ count: Int) {
        guard count > 1 else { return }
        registered.reserveCapacity(registered.count + count)
    }
}
