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

    private func readModels(
        _ request: StoreReadRequest, in store: any ModelStore, alsoReading toOne: Schema.Entity.Property?
    ) throws -> (models: [any PersistentModel], targets: [PersistentIdentifier?]) {
        var request = request
        if request.editingState == nil { request.editingState = editingState }
        if request.properties != nil { holdsUnfetchedAttributes = true }
        let registrationsBefore = registered.registrations
        let sink = ModelReadSink(context: self, storedTargetProperty: toOne)
        do {
            try store.readRows(request, into: sink)
        } catch {
            for var new in sink.newModels { new.slots.release() }
            throw error
        }
        // Unless decoding ran code of the app that registered models, the rows found unregistered still are.
        let isUnregistered = registered.registrations == registrationsBefore
        reserveRegistrations(sink.newModels.count)
        func newModel(_ identifier: PersistentIdentifier, _ new: (entity: Schema.Entity, slots: ModelSlots))
            -> any PersistentModel
        {
            registerNewModel(
                entity: new.entity, identifier: identifier, slots: new.slots, isUnregistered: isUnregistered)
        }
        let targets = sink.targets
        guard !sink.heldRows.isEmpty else {
            // Every row's model is new: each identifier and slot set is moved out of the read's lists into its
            // model, from the last row back, with no copy of either.
            var identifiers = sink.takeIdentifiers()
            var newModels = sink.takeNewModels()
            var models: [any PersistentModel] = []
            models.reserveCapacity(identifiers.count)
            while let identifier = identifiers.popLast(), let new = newModels.popLast() {
                models.append(newModel(identifier, new))
            }
            models.reverse()
            return (models, targets)
        }
        let identifiers = sink.identifiers
        var models: [(any PersistentModel)?] = Array(repeating: nil, count: identifiers.count)
        var nextNew = sink.newModels.startIndex
        var nextHeld = sink.heldRows.startIndex
        for position in identifiers.indices {
            if nextHeld < sink.heldRows.endIndex, sink.heldRows[nextHeld].position == position {
                nextHeld += 1
            } else {
                models[position] = newModel(identifiers[position], sink.newModels[nextNew])
                nextNew += 1
            }
        }
        for (position, row) in sink.heldRows {
            // A cursor's rows are the store as it was when its first page was read: a held model may be newer (the
            // enumeration's block saved it, or a save elsewhere was merged into it), so it is not set back.
            if request.cursor != nil, let held = registered[row.identifier]?.model {
                models[position] = held
            } else {
                models[position] = try materialize(row)
            }
        }
        return (models.map { $0! }, targets)
    }

    /// The slots of a new model of a row: each attribute's value, each relationship in its stored state.
    ///
    /// - Throws: what the row throws for a value that does not fit its property.
    func newSlots(of row: some StoreRow) throws -> ModelSlots {
        let slots = try row.slots()
        container.locateTargets(in: slots, of: row.entity)
        return slots
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

/// What a read gives a context: the slots of new models and the rows of held ones, in order, with their identifiers.
private final class ModelReadSink: StoreRowSink {
    /// Strong: the sink lives only as long as the read, and an unowned reference cost an atomic check per row.
    let context: ModelContext
    let storedTargetProperty: Schema.Entity.Property?
    private let holdsModels: Bool
    /// Read once: the context is not needed for a row no model holds, in a container whose links stay in their
    /// stores.
    private let hasLinksAcrossStores: Bool
    // Unchecked: one read fills the sink on one thread, and a checked access cost every row two run-time calls.
    @exclusivity(unchecked) private(set) var identifiers: [PersistentIdentifier] = []
    @exclusivity(unchecked) private(set) var targets: [PersistentIdentifier?] = []
    /// The slots of the new models, in order.
    @exclusivity(unchecked) private(set) var newModels: [(entity: Schema.Entity, slots: ModelSlots)] = []
    /// The rows of held models, with their positions.
    @exclusivity(unchecked) private(set) var heldRows: [(position: Int, row: any StoreRow)] = []

    init(context: ModelContext, storedTargetProperty: Schema.Entity.Property?) {
        self.context = context
        self.storedTargetProperty = storedTargetProperty
        self.holdsModels = context.registered.count > 0
        self.hasLinksAcrossStores = context.container.hasLinksAcrossStores
    }

    func holdsModel(of identifier: PersistentIdentifier) -> Bool {
        holdsModels && context.registered[identifier] != nil
    }

    func takeNew(
        _ identifier: consuming PersistentIdentifier, entity: Schema.Entity, slots: ModelSlots,
        storedTarget: consuming PersistentIdentifier?
    ) {
        if hasLinksAcrossStores { context.container.locateTargets(in: slots, of: entity) }
        newModels.append((entity, slots))
        take(identifier, storedTarget: storedTarget)
    }

    func takeHeld(_ row: any StoreRow, storedTarget: consuming PersistentIdentifier?) {
        heldRows.append((identifiers.count, row))
        take(row.identifier, storedTarget: storedTarget)
    }

    /// The identifiers, in order, taken out of the sink.
    func takeIdentifiers() -> [PersistentIdentifier] {
        defer { identifiers = [] }
        return identifiers
    }

    /// The slots of the new models, in order, taken out of the sink.
    func takeNewModels() -> [(entity: Schema.Entity, slots: ModelSlots)] {
        defer { newModels = [] }
        return newModels
    }

    private func take(_ identifier: consuming PersistentIdentifier, storedTarget: consuming PersistentIdentifier?) {
        identifiers.append(identifier)
        guard let property = storedTargetProperty else { return }
        guard hasLinksAcrossStores, let target = storedTarget, let destination = property.relationshipInfo?.destination
        else {
            targets.append(storedTarget)
            return
        }
        targets.append(context.container.located(target, in: destination))
    }
}
