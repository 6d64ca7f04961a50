extension ModelContext {
    // MARK: - Internal

    /// The models a relationship of a saved model refers to, read in one query for the related rows (two for a
    /// join table or a foreign key on this side).
    func loadRelatedModels(of storage: ModelStorage, property: Schema.Entity.Property) -> [any PersistentModel] {
        guard let key = storage.identifier.primaryKey else { return [] }
        let groups = try? relatedModels(ownerKeys: [key], property: property, ownerEntity: storage.entity)
        return groups?[key] ?? []
    }

    /// Loads one relationship of many models at once (prefetching): one query per 1,000 owners (two for a join
    /// table), or one in all for a to-one relationship whose foreign key the owners hold.
    func prefetch(_ property: Schema.Entity.Property, of storages: [ModelStorage]) throws {
        guard let info = property.relationshipInfo else { return }
        let pending = storages.filter {
            $0.identifier.primaryKey != nil && $0.isUnloadedRelationship(at: property.index)
        }
        guard !pending.isEmpty else { return }
        if case .foreignKey = info.storage {
            // The keys are already in the owners' rows: the targets load in one query, and each owner's fault is
            // replaced by its target (the registry alone would not keep the targets alive until they are read).
            let faults = pending.map { ($0, $0.values[property.index] as? ModelStorage.ToOneFault) }
            let targets = try modelsByKey(
                of: info.destination, primaryKeys: Set(faults.compactMap { $0.1?.target?.primaryKey }))
            for case (let storage, let fault?) in faults {
                guard let key = fault.target?.primaryKey else {
                    storage.fillRelationship(at: property.index, with: [])
                    continue
                }
                if let target = targets[key] { storage.fillRelationship(at: property.index, with: [target]) }
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
                ownerKeys: batch.compactMap(\.identifier.primaryKey),
                property: property,
                ownerEntity: batch[start].entity
            )
            for storage in batch {
                storage.fillRelationship(at: property.index, with: groups[storage.identifier.primaryKey!] ?? [])
            }
            start = batch.endIndex
        }
    }

    /// How many owners' related models a prefetch reads in one query.
    static let prefetchBatchSize = 1_000

    /// The related models of several owners, grouped by owner key and ordered by the related models' keys.
    func relatedModels(
        ownerKeys: [Int64],
        property: Schema.Entity.Property,
        ownerEntity: Schema.Entity
    ) throws -> [Int64: [any PersistentModel]] {
        guard let info = property.relationshipInfo else { return [:] }
        let destination = info.destination!
        let destinationStore = try container.store(for: destination)
        let ownerStore = try container.store(for: ownerEntity)
        let owners = SQLiteKeySet(ownerKeys)
        var groups: [Int64: [any PersistentModel]] = [:]

        switch info.storage {
        case .inverseForeignKey(let column):
            let layout = destinationStore.layouts[destination.name]!
            guard let inverse = info.inverse, let position = layout.columnRangeByProperty[inverse.index]?.lowerBound
            else { return [:] }
            let condition = owners.condition(on: quoted(column))
            let query = SQLQuery(
                whereClause: condition.sql, bindings: condition.bindings, orderBy: quoted(SQLiteTableLayout.primaryKey))
            let read = try readModels(
                of: destination, store: destinationStore, layout: layout, query: query, alsoReading: position)
            for (owner, model) in zip(read.columnValues, read.models) {
                guard case .integer(let owner) = owner, !model.storage.isDeleted else { continue }
                groups[owner, default: []].append(model)
            }
        case .joinTable(let table, let ownerColumn, let targetColumn):
            let condition = owners.condition(on: quoted(ownerColumn))
            let sql =
                "SELECT \(quoted(ownerColumn)), \(quoted(targetColumn)) FROM \(quoted(table)) "
                + "WHERE \(condition.sql) ORDER BY \(quoted(ownerColumn)), \(quoted(targetColumn))"
            let pairs = try ownerStore.keyPairs(sql, condition.bindings, entityName: ownerEntity.name)
            try group(pairs, into: &groups, destination: destination)
        case .foreignKey(let column):
            let condition = owners.condition(on: quoted(SQLiteTableLayout.primaryKey))
            let sql =
                "SELECT \(quoted(SQLiteTableLayout.primaryKey)), \(quoted(column)) FROM \(quoted(ownerEntity.tableName)) "
                + "WHERE \(condition.sql) AND \(quoted(column)) IS NOT NULL"
            let pairs = try ownerStore.keyPairs(sql, condition.bindings, entityName: ownerEntity.name)
            try group(pairs, into: &groups, destination: destination)
        }
        return groups
    }

    private func group(
        _ pairs: [(Int64, Int64)],
        into groups: inout [Int64: [any PersistentModel]],
        destination: Schema.Entity
    ) throws {
        let byKey = try modelsByKey(of: destination, primaryKeys: Set(pairs.map(\.1)))
        for (owner, target) in pairs {
            if let model = byKey[target] { groups[owner, default: []].append(model) }
        }
    }

    /// The models of an entity with the given keys, in that order, reading unregistered ones in one query.
    func models(of entity: Schema.Entity, primaryKeys: [Int64]) throws -> [any PersistentModel] {
        let byKey = try modelsByKey(of: entity, primaryKeys: primaryKeys)
        return primaryKeys.compactMap { byKey[$0] }
    }

    /// The models of an entity with the given keys, by key, reading unregistered ones in one query; deleted models
    /// and keys without a row are left out.
    func modelsByKey(of entity: Schema.Entity, primaryKeys: some Sequence<Int64>) throws
        -> [Int64: any PersistentModel]
    {
        let store = try container.store(for: entity)
        var byKey: [Int64: any PersistentModel] = [:]
        var missing: [Int64] = []
        for key in primaryKeys {
            let identifier = store.identifier(entityName: entity.name, primaryKey: key)
            guard let storage = registered[identifier] else {
                missing.append(key)
                continue
            }
            if !storage.isDeleted, let model = storage.model { byKey[key] = model }
        }
        if !missing.isEmpty {
            let condition = SQLiteKeySet(missing).condition(on: quoted(SQLiteTableLayout.primaryKey))
            let query = SQLQuery(whereClause: condition.sql, bindings: condition.bindings)
            let layout = store.layouts[entity.name]!
            // A row deleted without loading comes back as a deleted model.
            let read = try readModels(of: entity, store: store, layout: layout, query: query)
            for (key, model) in zip(read.keys, read.models) where !model.storage.isDeleted { byKey[key] = model }
        }
        return byKey
    }
}

extension SQLiteStore {
    /// Pairs of integer columns returned by a query with the given bound values.
    func keyPairs(_ sql: String, _ values: [SQLiteValue], entityName: String) throws -> [(Int64, Int64)] {
        try run(sql, entityName: entityName) { connection in
            try connection.statement(sql).rows(values).compactMap { row in
                guard case .integer(let first) = row[0], case .integer(let second) = row[1] else { return nil }
                return (first, second)
            }
        }
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
