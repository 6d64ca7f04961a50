/// The rows one fetch returned, by identifier, so that loading a relationship of one of its models loads it for
/// the next models of the same fetch too.
///
/// Walking fetched models and reading a relationship of each is the common pattern; loading it model by model
/// runs one query per model (501 queries for 500 trips and their items). When a model's relationship is first
/// read, the context loads that relationship for it and for up to `lazyLoadBatchSize - 1` models (a number its
/// store chooses) that follow it in its fetch and are still in memory with the relationship not loaded, in one
/// query. The group holds identifiers, not models, so it keeps no model alive.
final class FetchGroup {
    let entity: Schema.Entity
    let identifiers: [PersistentIdentifier]

    init(entity: Schema.Entity, identifiers: [PersistentIdentifier]) {
        self.entity = entity
        self.identifiers = identifiers
    }
}

extension ModelContext {
    /// Loads a relationship of a saved model that is not loaded yet, together with the same relationship of the
    /// models that follow it in its fetch. A load the store fails leaves the relationship unloaded, for the next
    /// read to try again.
    func loadRelationship(_ property: Schema.Entity.Property, of storage: ModelStorage) {
        guard loadForFetchGroup(property, of: storage) else {
            guard let models = loadRelatedModels(of: storage, property: property) else { return }
            storage.fillRelationship(at: property.index, with: models)
            return
        }
    }

    /// Loads a relationship for a storage and the models after it in its fetch group, in one query; false, doing
    /// nothing, when no other model of the group needs it. A to-one relationship's targets are registered, and
    /// each fault then resolves from the registry.
    @discardableResult
    func loadForFetchGroup(_ property: Schema.Entity.Property, of storage: ModelStorage) -> Bool {
        let batch = fetchGroupBatch(of: storage, needing: property)
        guard batch.count > 1 else { return false }
        // The store could not be read: the relationships it did not load are left unloaded, for the next read to
        // try again, as a single load leaves them.
        try? prefetch(property, of: batch)
        return true
    }

    /// The storage and the models after it in its fetch group whose relationship slot is not loaded.
    private func fetchGroupBatch(of storage: ModelStorage, needing property: Schema.Entity.Property)
        -> [ModelStorage]
    {
        guard let group = storage.fetchGroup, group.entity === storage.entity,
            let batchSize = try? container.store(for: storage.entity).lazyLoadBatchSize
        else { return [storage] }
        var batch = [storage]
        let start = storage.fetchGroupIndex + 1
        // The models after this one, skipping released ones and those that loaded the relationship already, up to
        // a few batches' worth of positions so that a mostly released fetch is not scanned to its end every time.
        for identifier in group.identifiers[min(start, group.identifiers.count)...].prefix(batchSize * 4) {
            guard let sibling = registered[identifier], sibling.entity === storage.entity else {
                continue
            }
            if sibling.isUnloadedRelationship(at: property.index) { batch.append(sibling) }
            if batch.count == batchSize { break }
        }
        return batch
    }
}
