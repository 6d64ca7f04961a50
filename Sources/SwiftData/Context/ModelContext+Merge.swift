internal import Foundation

extension ModelContext {
    // MARK: - Internal

    /// Applies the saves other contexts of the container made since this context last looked.
    ///
    /// The merge rule: a registered model without unsaved changes takes the saved values (attributes are re-read,
    /// relationships reload on next access) and its observers are notified; a model deleted elsewhere is marked
    /// deleted and dropped from the context. A model with unsaved changes keeps them: the slots it changed win
    /// when it is saved, the others take the saved values then.
    ///
    /// When every row of some stores was deleted (`deleteAllData()`, `erase()`), the models of those stores whose
    /// rows are gone leave the context as deleted, those with unsaved changes or a pending deletion included (their
    /// changes are dropped, as Core Data's invalidation of every object drops them), and the context then
    /// announces them under `invalidatedAllIdentifiers`.
    func applyExternalChanges() {
        let pending = inbox.drain()
        guard !pending.isEmpty else { return }
        guard !pending.refreshesEverything else {
            // More saves arrived than the inbox keeps one by one, or every row of some stores was deleted: re-read
            // every registered model, and those whose rows are gone were deleted.
            let held = registered.allStorages.filter(\.isSaved).map(\.identifier)
            let invalidated = pending.invalidatedStores
            var vanished = refreshRegisteredModels(held)
            if !invalidated.isEmpty {
                // Models with changes are not re-read; those of the stores whose rows were all deleted are looked up.
                let edited = held.filter { identifier in
                    registered[identifier]?.hasChanges == true && isInStore(identifier, invalidated)
                }
                vanished += missingRows(edited)
            }
            // Marked before they are announced: an observer of the announcement sees them deleted.
            let gone = markDeletedElsewhere(vanished, discardingChangesOf: invalidated)
            let announced = gone.filter { isInStore($0, invalidated) }
            if !announced.isEmpty { announceInvalidation(of: announced) }
            return
        }
        markDeletedElsewhere(pending.deleted)
        refreshRegisteredModels(Array(pending.updated))
    }

    /// Gives the models that had unsaved changes when other contexts saved their rows the values those saved, in the
    /// properties they did not change: called once their changes are saved or rolled back.
    func refreshModelsSavedElsewhereWhileChanged() {
        guard !savedElsewhereWhileChanged.isEmpty else { return }
        let identifiers = Array(savedElsewhereWhileChanged)
        savedElsewhereWhileChanged = []
        refreshRegisteredModels(identifiers)
        guard !localChangeObservers.isEmpty else { return }
        for identifier in identifiers {
            if let storage = registered[identifier] { noteLocalChange(.refreshed(storage)) }
        }
    }

    /// Drops registered models whose rows another context deleted, and returns the identifiers of those it
    /// dropped. A model with unsaved changes stays, unless its store is one of `stores`: then it leaves too, and
    /// its changes and pending deletion are dropped.
    ///
    /// Which models leave is decided before any leaves: detaching one deleted model from another (a cascade
    /// elsewhere deletes both) changes the other, which must not make it look like an edit of a row that is gone.
    @discardableResult
    private func markDeletedElsewhere(
        _ identifiers: some Sequence<PersistentIdentifier>,
        discardingChangesOf stores: Set<String> = []
    ) -> [PersistentIdentifier] {
        let gone = identifiers.compactMap { identifier -> (model: any PersistentModel, discards: Bool)? in
            guard let model = registered[identifier]?.model else { return nil }
            let discards = isInStore(identifier, stores)
            guard discards || !model.storage.hasChanges else {
                heldAfterDeletionElsewhere.insert(identifier)
                return nil
            }
            return (model, discards)
        }
        guard !gone.isEmpty else { return [] }
        let droppedDeletions = gone.filter { $0.discards && deleted.contains($0.model) }.map(\.model)
        for (model, _) in gone { removeDeletedModel(model.storage) }
        let goneStorages = Set(gone.map { ObjectIdentifier($0.model.storage) })
        for (model, _) in gone {
            model.storage.changedSlots = []
            changed.remove(model)
        }
        for model in droppedDeletions { deleted.remove(model) }
        savedValues.removeAll { goneStorages.contains(ObjectIdentifier($0.storage)) }
        return gone.map(\.model.storage.identifier)
    }

    /// True when the store that holds the identifier's entity is one of `stores`, by their identifiers.
    private func isInStore(_ identifier: PersistentIdentifier, _ stores: Set<String>) -> Bool {
        guard !stores.isEmpty, let entity = container.schema.modelEntitiesByName[identifier.entityName],
            let store = try? container.store(for: entity)
        else { return false }
        return stores.contains(store.identifier)
    }

    /// Tells `didSave` observers that models the context held are invalid: the rows of their stores were deleted.
    private func announceInvalidation(of identifiers: [PersistentIdentifier]) {
        NotificationCenter.default.post(
            name: ModelContext.didSave,
            object: self,
            userInfo: [
                NotificationKey.invalidatedAllIdentifiers.rawValue: identifiers,
                NotificationKey.insertedIdentifiers.rawValue: [PersistentIdentifier](),
                NotificationKey.updatedIdentifiers.rawValue: [PersistentIdentifier](),
                NotificationKey.deletedIdentifiers.rawValue: [PersistentIdentifier](),
            ]
        )
    }

    /// Re-reads registered, unchanged models with the given identifiers, one query per entity, and returns the
    /// identifiers of those whose rows a successful read did not find.
    @discardableResult
    private func refreshRegisteredModels(_ identifiers: [PersistentIdentifier]) -> [PersistentIdentifier] {
        var byEntity: [String: [PersistentIdentifier]] = [:]
        for identifier in identifiers {
            guard let model = registered[identifier]?.model, !identifier.isTemporary else { continue }
            guard !model.storage.hasChanges else {
                // Its changes win; its other properties take the saved values once it is saved or rolled back.
                savedElsewhereWhileChanged.insert(identifier)
                continue
            }
            byEntity[identifier.entityName, default: []].append(identifier)
        }
        var vanished: [PersistentIdentifier] = []
        for (entityName, identifiers) in byEntity {
            guard let entity = container.schema.modelEntitiesByName[entityName],
                let store = try? container.store(for: entity)
            else { continue }
            var request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            request.editingState = editingState
            guard let found = try? refreshModels(request, in: store) else { continue }
            vanished += identifiers.filter { !found.contains($0) }
        }
        return vanished
    }

    /// The given identifiers whose rows a successful read did not find, one query per entity; the models are not
    /// re-read.
    private func missingRows(_ identifiers: [PersistentIdentifier]) -> [PersistentIdentifier] {
        let byEntity = Dictionary(grouping: identifiers.filter { !$0.isTemporary }, by: \.entityName)
        var missing: [PersistentIdentifier] = []
        for (entityName, identifiers) in byEntity {
            guard let entity = container.schema.modelEntitiesByName[entityName],
                let store = try? container.store(for: entity)
            else { continue }
            var request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            request.editingState = editingState
            guard let found = try? store.identifiers(request) else { continue }
            let existing = Set(found)
            missing += identifiers.filter { !existing.contains($0) }
        }
        return missing
    }

    /// Refreshes the models of the rows a read selects, relationships included, and returns the rows' identifiers.
    private func refreshModels<Store: ModelStore>(_ request: StoreReadRequest, in store: Store) throws
        -> Set<PersistentIdentifier>
    {
        var rows: [Store.Row] = []
        try store.readRows(request) { rows.append($0.retained()) }
        for row in rows {
            guard let model = try? materialize(row) else { continue }
            model.storage.resetRelationshipsToStored(from: row, context: self)
        }
        return Set(rows.map(\.identifier))
    }
}

extension ModelStorage {
    /// Makes relationship slots that have no unsaved change read their stored state again on next access.
    final func resetRelationshipsToStored(from row: some StoreRow, context: ModelContext) {
        for property in entity.persistedProperties
        where property.isRelationship && !changedSlots.contains(property.index) {
            let stored = (try? row.value(of: property)) ?? ToOneFault(target: nil)
            setObserved(property.index, context.container.locatingTarget(of: stored, property: property))
        }
    }
}
