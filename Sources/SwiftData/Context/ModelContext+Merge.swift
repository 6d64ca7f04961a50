internal import Foundation

extension ModelContext {
    // MARK: - Internal

    /// Applies the saves other contexts of the container made since this context last looked.
    ///
    /// The merge rule: a registered model without unsaved changes takes the saved values (attributes are re-read,
    /// relationships reload on next access) and its observers are notified; a model deleted elsewhere is marked
    /// deleted and dropped from the context. A model with unsaved changes keeps them: the slots it changed win
    /// when it is saved, the others take the saved values then.
    func applyExternalChanges() {
        let pending = inbox.drain()
        guard !pending.isEmpty else { return }
        guard !pending.refreshesEverything else {
            // More saves arrived than the inbox keeps one by one, or every row was deleted: re-read every registered
            // model, and those whose rows are gone were deleted.
            let held = registered.allStorages.filter(\.isSaved).map(\.identifier)
            let vanished = refreshRegisteredModels(held)
            // Marked before they are announced: an observer of the announcement sees them deleted.
            markDeletedElsewhere(vanished)
            if pending.invalidatesAll && !held.isEmpty { announceInvalidation(of: held) }
            return
        }
        markDeletedElsewhere(pending.deleted)
        refreshRegisteredModels(Array(pending.updated))
    }

    /// Drops registered models without unsaved changes whose rows another context deleted.
    ///
    /// Which models leave is decided before any leaves: detaching one deleted model from another (a cascade
    /// elsewhere deletes both) changes the other, which must not make it look like an edit of a row that is gone.
    private func markDeletedElsewhere(_ identifiers: some Sequence<PersistentIdentifier>) {
        let gone = identifiers.compactMap { identifier -> (any PersistentModel)? in
            guard let model = registered[identifier]?.model, !model.storage.hasChanges else { return nil }
            return model
        }
        guard !gone.isEmpty else { return }
        for model in gone { removeDeletedModel(model.storage) }
        let goneStorages = Set(gone.map { ObjectIdentifier($0.storage) })
        for model in gone {
            model.storage.changedSlots = []
            changed.remove(model)
        }
        savedValues.removeAll { goneStorages.contains(ObjectIdentifier($0.storage)) }
    }

    /// Tells `didSave` observers that every model the context held is invalid: the container's data was deleted.
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
            guard let model = registered[identifier]?.model, !model.storage.hasChanges, !identifier.isTemporary
            else { continue }
            byEntity[identifier.entityName, default: []].append(identifier)
        }
        var vanished: [PersistentIdentifier] = []
        for (entityName, identifiers) in byEntity {
            guard let entity = container.schema.modelEntitiesByName[entityName],
                let store = try? container.store(for: entity)
            else { continue }
            let request = StoreReadRequest(entity: entity, selection: .identifiers(identifiers))
            guard let found = try? refreshModels(request, in: store) else { continue }
            vanished += identifiers.filter { !found.contains($0) }
        }
        return vanished
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
