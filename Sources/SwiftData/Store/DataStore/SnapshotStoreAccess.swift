/// The snapshot interface of ``DataStore`` over a container of one built-in store: what ``DefaultStore`` and the
/// PostgreSQL store's `DataStore` type do for code that wants snapshots. The container reads and writes the store
/// as it does for every context, so a snapshot sees what a context sees.
package final class SnapshotStoreAccess {
    // MARK: - Processing Fetch Requests

    /// Returns snapshots of the models a request describes, with the predicate, sort, offset and limit applied
    /// by the store. `relatedSnapshots` is empty: ask ``cachedSnapshots(for:editingState:)`` for related models.
    ///
    /// - Throws: The errors `ModelContext.fetch(_:)` throws.
    package func fetch<T>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot>
    where T: PersistentModel {
        let context = makeContext(for: request.editingState)
        var related: [PersistentIdentifier: any BackingData] = [:]
        let snapshots = try context.fetch(request.descriptor).map { model in
            DefaultSnapshot(from: model.persistentBackingData, relatedBackingDatas: &related)
        }
        return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: snapshots)
    }

    /// Returns the number of models a request describes.
    ///
    /// - Throws: The errors `ModelContext.fetchCount(_:)` throws.
    package func fetchCount<T>(_ request: DataStoreFetchRequest<T>) throws -> Int where T: PersistentModel {
        try makeContext(for: request.editingState).fetchCount(request.descriptor)
    }

    /// Returns the identifiers of the models a request describes.
    ///
    /// - Throws: The errors `ModelContext.fetchIdentifiers(_:)` throws.
    package func fetchIdentifiers<T>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        try makeContext(for: request.editingState).fetchIdentifiers(request.descriptor)
    }

    // MARK: - Persisting Model Data

    /// Writes snapshots into the store in one transaction: inserted snapshots become new rows, updated ones
    /// replace the values of their rows, deleted ones delete their rows (with their relationships' delete rules).
    ///
    /// Relationships name models by identifier: an inserted snapshot's temporary identifier refers to the model it
    /// inserts, any other to a stored model. The result maps each inserted snapshot's identifier to its row's
    /// permanent one, and holds the saved snapshots of the inserted and updated models.
    ///
    /// - Throws: The errors `ModelContext.save()` throws; nothing is written then.
    package func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws
        -> DataStoreSaveChangesResult<DefaultSnapshot>
    {
        let context = makeContext(for: request.editingState)
        var inserted: [(snapshot: DefaultSnapshot, model: any PersistentModel)] = []
        for snapshot in request.inserted {
            let properties = snapshot.entity.persistedProperties
            let (model, storage) = snapshot.entity.makeModel(
                identifier: snapshot.persistentIdentifier,
                slots: ModelSlots(count: properties.count) { index -> Any in
                    let property = properties[index]
                    if property.isRelationship { return property.emptyRelationshipValue }
                    if case .attribute(let value)? = snapshot.values[property.name] { return value }
                    return property.unstoredValue
                })
            // Made as a fetched model is: it becomes a new one, which the save inserts.
            storage.isSaved = false
            context.insert(model)
            inserted.append((snapshot, model))
        }
        let insertedByIdentifier = Dictionary(
            inserted.map { ($0.snapshot.persistentIdentifier, $0.model) }, uniquingKeysWith: { first, _ in first })
        func resolve(_ identifier: PersistentIdentifier) -> (any PersistentModel)? {
            if let model = insertedByIdentifier[identifier] { return model }
            // An identifier of another store, or of an entity this store does not hold, names no model here.
            guard identifier.storeIdentifier == self.identifier,
                container.schema.modelEntitiesByName[identifier.entityName] != nil
            else { return nil }
            let model = context.model(for: identifier)
            return model.isDeleted ? nil : model
        }
        for snapshot in request.updated {
            guard let model = resolve(snapshot.persistentIdentifier) else {
                throw SwiftDataError(
                    .modelValidationFailure, "the store holds no \(snapshot.persistentIdentifier) to update",
                    entityName: snapshot.persistentIdentifier.entityName)
            }
            let storage = model.storage
            for property in storage.entity.persistedProperties where !property.isRelationship {
                guard case .attribute(let value)? = snapshot.values[property.name] else { continue }
                storage.setAttribute(at: property.index, to: value)
            }
        }
        for (snapshot, model) in inserted { Self.setRelationships(of: model.storage, from: snapshot, resolve: resolve) }
        for snapshot in request.updated {
            guard let model = resolve(snapshot.persistentIdentifier) else { continue }
            Self.setRelationships(of: model.storage, from: snapshot, resolve: resolve)
        }
        for snapshot in request.deleted {
            guard let model = resolve(snapshot.persistentIdentifier) else { continue }
            context.delete(model)
        }
        try context.save()
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        var saved: [PersistentIdentifier: DefaultSnapshot] = [:]
        var related: [PersistentIdentifier: any BackingData] = [:]
        for (snapshot, model) in inserted {
            remapped[snapshot.persistentIdentifier] = model.persistentModelID
            saved[model.persistentModelID] = DefaultSnapshot(
                from: model.anyBackingData, relatedBackingDatas: &related)
        }
        for snapshot in request.updated {
            guard let model = resolve(snapshot.persistentIdentifier) else { continue }
            saved[model.persistentModelID] = DefaultSnapshot(
                from: model.anyBackingData, relatedBackingDatas: &related)
        }
        return DataStoreSaveChangesResult(
            for: identifier, remappedIdentifiers: remapped, snapshotsToReregister: saved)
    }

    /// Sets a model's relationships to the models a snapshot names, as changes the save writes.
    private static func setRelationships(
        of storage: ModelStorage, from snapshot: DefaultSnapshot,
        resolve: (PersistentIdentifier) -> (any PersistentModel)?
    ) {
        for property in storage.entity.persistedProperties where property.isRelationship {
            switch snapshot.values[property.name] {
            case .toMany(let targets)?:
                storage.setRelationship(at: property.index, to: property.makeCollection(targets.compactMap(resolve)))
            case .toOne(let target)?:
                let model = target.flatMap(resolve)
                storage.setRelationship(
                    at: property.index,
                    to: model.map { property.isOptional ? property.wrapOptional($0) : $0 } ?? property.noneValue)
            case .attribute?, nil:
                continue
            }
        }
    }

    // MARK: - Deleting Persisted Model Data

    /// Deletes every model the store holds.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the store was opened with `allowsSave: false`.
    package func erase() throws {
        try container.erase()
    }

    /// Deletes every model of a type that a request's predicate matches, and saves the deletion.
    ///
    /// - Throws: The errors `ModelContext.delete(model:where:includeSubclasses:)` and `ModelContext.save()` throw.
    package func delete<T>(_ request: DataStoreBatchDeleteRequest<T>) throws where T: PersistentModel {
        let context = makeContext(for: request.editingState)
        try context.delete(model: T.self, where: request.predicate, includeSubclasses: request.includeSubclasses)
        try context.save()
    }

    // MARK: - Sharing Cached Data Between Model Contexts

    /// Returns snapshots of the stored models with the given identifiers; identifiers of models the store does not
    /// hold are left out. The store keeps no cache: each call reads the models.
    package func cachedSnapshots(for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState) throws
        -> [PersistentIdentifier: DefaultSnapshot]
    {
        let context = makeContext(for: editingState)
        var related: [PersistentIdentifier: any BackingData] = [:]
        var snapshots: [PersistentIdentifier: DefaultSnapshot] = [:]
        for identifier in persistentIdentifiers
        where identifier.storeIdentifier == self.identifier && snapshots[identifier] == nil {
            let model = context.model(for: identifier)
            guard !model.isDeleted else { continue }
            snapshots[identifier] = DefaultSnapshot(
                from: model.anyBackingData, relatedBackingDatas: &related)
        }
        return snapshots
    }

    // MARK: - Internal

    /// The container that reads and writes the store.
    package let container: ModelContainer

    /// The identifier of the store the container opened.
    package var identifier: String { container.stores.first?.identifier ?? "" }

    /// Access through a container of one store.
    package init(container: ModelContainer) {
        self.container = container
    }

    /// A context for one request, with the request's author.
    private func makeContext(for editingState: EditingState) -> ModelContext {
        let context = ModelContext(container)
        context.author = editingState.author
        return context
    }
}
