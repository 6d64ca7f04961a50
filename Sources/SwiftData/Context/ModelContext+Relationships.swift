extension ModelContext {
    // MARK: - Internal

    /// The models a relationship of a saved model refers to, read in one query for the related rows (two for
    /// links the related rows do not hold); nil when the store could not be read, which says nothing of the links.
    func loadRelatedModels(of storage: ModelStorage, property: Schema.Entity.Property) -> [any PersistentModel]? {
        guard !storage.identifier.isTemporary else { return [] }
        let identifier = storage.identifier
        guard let groups = try? relatedModels(owners: [identifier], property: property, ownerEntity: storage.entity)
        else { return nil }
        return groups[identifier] ?? []
    }

    /// Loads one relationship of many models at once (prefetching): one query per 1,000 owners (two where the
    /// related rows do not hold the links), or one in all for a to-one relationship whose target the owners' rows
    /// name.
    func prefetch(_ property: Schema.Entity.Property, of storages: [ModelStorage]) throws {
        guard let info = property.relationshipInfo else { return }
        let pending = storages.filter {
            !$0.identifier.isTemporary && $0.isUnloadedRelationship(at: property.index)
        }
        guard !pending.isEmpty else { return }
        if !info.isToMany, pending.allSatisfy({ $0.values[property.index] is ModelStorage.ToOneFault }) {
            // The targets are already named in the owners' rows: they load in one query, and each owner's fault is
            // replaced by its target (the registry alone would not keep the targets alive until they are read).
            let faults = pending.map { ($0, $0.values[property.index] as? ModelStorage.ToOneFault) }
            let targets = try modelsByIdentifier(
                of: info.destination, identifiers: Set(faults.compactMap { $0.1?.target }))
            for case (let storage, let fault?) in faults {
                guard let target = fault.target else {
                    storage.fillRelationship(at: property.index, with: [])
                    continue
                }
                if let model = targets[target] { storage.fillRelationship(at: property.index, with: [model]) }
            }
            return
        }
        // A query per `prefetchBatchSize` owners: the related models of a batch go into their owners' slots while
        // they are still in the processor's caches. For 10,000 owners and their 100,000 related models, one query
        // took 192 ms, batches of 1,000 took 181 ms and batches of 100 took 174 ms; 1,000 keeps the queries few
        // for stores where each one is a round trip.
        var start = pending.startIndex
        while start < pending.endIndex {
            let batch = pending[start..<min(start + Self.prefetchBatchSize, pending.endIndex)]
            let groups = try relatedModels(
                owners: batch.map(\.identifier),
                property: property,
                ownerEntity: batch[start].entity
            )
            for storage in batch {
                storage.fillRelationship(at: property.index, with: groups[storage.identifier] ?? [])
            }
            start = batch.endIndex
        }
    }

    /// How many owners' related models a prefetch reads in one query.
    static let prefetchBatchSize = 1_000

    /// The related models of several owners, grouped by owner and ordered by the related models' identifiers.
    func relatedModels(
        owners: [PersistentIdentifier],
        property: Schema.Entity.Property,
        ownerEntity: Schema.Entity
    ) throws -> [PersistentIdentifier: [any PersistentModel]] {
        guard let info = property.relationshipInfo else { return [:] }
        let destination = info.destination!
        var groups = OwnerGroups(ownerCount: owners.count)
        let asked = AskedIdentifiers(owners, of: ownerEntity)
        if info.linksLiveInTargets, let inverse = info.inverse {
            // Each related row names its owner: read the rows that name one of these owners.
            var request = StoreReadRequest(entity: destination, selection: .related(through: inverse, owners: owners))
            request.ordersByIdentifier = true
            let read = try readModels(
                request, from: try container.store(for: destination), withStoredTargetsOf: inverse)
            for (model, stored) in zip(read.models, read.targets) where !model.storage.isDeleted {
                guard let stored else { continue }
                groups.append(model, owner: asked.asked(for: stored))
            }
            return groups.finished()
        }
        let links = try container.store(for: ownerEntity).links(
            of: property, owner: ownerEntity, owners: owners, editingState: editingState)
        let targets = links.map { container.located($0.target, in: destination) }
        let byIdentifier = try modelsByIdentifier(of: destination, identifiers: Set(targets))
        for (link, target) in zip(links, targets) {
            if let model = byIdentifier[target] { groups.append(model, owner: asked.asked(for: link.owner)) }
        }
        return groups.finished()
    }

    /// The models with the given identifiers, in that order, reading unregistered ones in one query.
    func models(of entity: Schema.Entity, identifiers: [PersistentIdentifier]) throws -> [any PersistentModel] {
        let byIdentifier = try modelsByIdentifier(of: entity, identifiers: identifiers)
        return identifiers.compactMap { byIdentifier[$0] }
    }

    /// The models of an entity with the given identifiers, reading unregistered ones in one query; deleted models
    /// and identifiers without a row are left out.
    func modelsByIdentifier(of entity: Schema.Entity, identifiers: some Sequence<PersistentIdentifier>) throws
        -> [PersistentIdentifier: any PersistentModel]
    {
        var byIdentifier: [PersistentIdentifier: any PersistentModel] = [:]
        var missing: [PersistentIdentifier] = []
        for identifier in identifiers {
            guard let storage = registered[identifier] else {
                missing.append(identifier)
                continue
            }
            if !storage.isDeleted, let model = storage.model { byIdentifier[identifier] = model }
        }
        if !missing.isEmpty {
            let request = StoreReadRequest(entity: entity, selection: .identifiers(missing))
            let asked = AskedIdentifiers(missing, of: entity)
            // A row deleted without loading comes back as a deleted model.
            for model in try readModels(request, from: try container.store(for: entity)) where !model.storage.isDeleted
            {
                byIdentifier[asked.asked(for: model.storage.identifier)] = model
            }
        }
        return byIdentifier
    }
}

extension ModelStorage {
    /// Sets a relationship slot that was not loaded to the given models, as its saved state.
    final func fillRelationship(at index: Int, with models: [any PersistentModel]) {
        let property = entity.persistedProperties[index]
        let value: Any
        if property.relationshipInfo?.isToMany == true {
            value = property.makeCollection(models)
        } else if let model = models.first {
            value = property.isOptional ? property.wrapOptional(model) : model
        } else {
            value = property.noneValue
        }
        values[index] = value
    }
}

/// Related models grouped by owner, as `ModelContext.relatedModels(owners:property:ownerEntity:)` reads them.
///
/// The related rows come in key order, where one owner's related rows mostly follow each other (they were saved
/// together): a run of one owner's models is kept apart and becomes its group when the owner changes, so each run's
/// owner is hashed once rather than once per model (100,000 children of 10,000 parents hashed an identifier per child).
private struct OwnerGroups {
    private var groups: [PersistentIdentifier: [any PersistentModel]]
    private var runOwner: PersistentIdentifier?
    private var run: [any PersistentModel] = []

    /// Groups with room for `ownerCount` owners.
    init(ownerCount: Int) {
        groups = Dictionary(minimumCapacity: ownerCount)
    }

    /// Adds a model to its owner's group, after the models added before it.
    mutating func append(_ model: any PersistentModel, owner: consuming PersistentIdentifier) {
        if owner != runOwner {
            endRun()
            runOwner = consume owner
        }
        run.append(model)
    }

    /// The groups, once every model was added.
    mutating func finished() -> [PersistentIdentifier: [any PersistentModel]] {
        endRun()
        return groups
    }

    /// Moves the run into its owner's group, and makes room for a next run as long.
    private mutating func endRun() {
        guard let owner = runOwner, !run.isEmpty else { return }
        let models = run
        run = []
        run.reserveCapacity(models.count)
        if let earlier = groups.updateValue(models, forKey: owner) { groups[owner] = earlier + models }
    }
}
