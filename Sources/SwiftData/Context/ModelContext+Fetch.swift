extension ModelContext {
    // MARK: - Fetching Models

    /// The models that match a fetch descriptor, in its order.
    ///
    /// The predicate and sort run in SQL where they can; what SQL cannot express runs in memory, with Swift's own
    /// semantics, so the result is always what `predicate.evaluate` selects. Unsaved changes take part unless
    /// `includePendingChanges` is false.
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` when the predicate cannot be evaluated at all, or
    ///   `SwiftDataError.loadIssueModelContainer` when the store cannot be read.
    public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T: PersistentModel {
        applyExternalChanges()
        let plan = try FetchPlan(descriptor: descriptor, context: self)
        return try plan.models()
    }

    /// The number of models that match a fetch descriptor.
    ///
    /// - Throws: like `fetch(_:)`.
    public func fetchCount<T>(_ descriptor: FetchDescriptor<T>) throws -> Int where T: PersistentModel {
        applyExternalChanges()
        let plan = try FetchPlan(descriptor: descriptor, context: self)
        return try plan.count()
    }

    /// The identifiers of the models that match a fetch descriptor.
    ///
    /// - Throws: like `fetch(_:)`.
    public func fetchIdentifiers<T>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier]
    where T: PersistentModel {
        applyExternalChanges()
        let plan = try FetchPlan(descriptor: descriptor, context: self)
        return try plan.identifiers()
    }

    /// Calls a block for each model that matches a fetch descriptor, loading them in batches.
    ///
    /// - Throws: `SwiftDataError.includePendingChangesWithBatchSize`'s sibling rule: when the context has unsaved
    ///   changes and `allowEscapingMutations` is false, this throws `SwiftDataError.modelValidationFailure` rather
    ///   than enumerate over a dirty context; also what the block throws.
    public func enumerate<T>(
        _ fetch: FetchDescriptor<T>,
        batchSize: Int = 5000,
        allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws where T: PersistentModel {
        if !allowEscapingMutations && hasChanges {
            throw SwiftDataError(
                .modelValidationFailure,
                "enumerate needs a context without unsaved changes; save first or pass allowEscapingMutations: true"
            )
        }
        let plan = try FetchPlan(descriptor: fetch, context: self)
        if plan.canPageByPrimaryKey {
            // Keyset paging: each batch continues after the last key, so every batch costs the same.
            var remaining = fetch.fetchLimit ?? Int.max
            var skip = fetch.fetchOffset ?? 0
            var lastKey: Int64 = Int64.min
            while remaining > 0 {
                let batch = try plan.models(afterPrimaryKey: lastKey, limit: min(max(1, batchSize), remaining + skip))
                guard let last = batch.last?.persistentModelID.primaryKey else { break }
                lastKey = last
                let used = batch.dropFirst(min(skip, batch.count))
                skip -= batch.count - used.count
                for model in used.prefix(remaining) { try block(model) }
                remaining -= min(remaining, used.count)
                if batch.count < max(1, batchSize) { break }
            }
            return
        }
        var descriptor = fetch
        let start = fetch.fetchOffset ?? 0
        let end = fetch.fetchLimit.map { start + $0 }
        var offset = start
        let size = max(1, batchSize)
        while end.map({ offset < $0 }) ?? true {
            descriptor.fetchOffset = offset
            descriptor.fetchLimit = end.map { min(size, $0 - offset) } ?? size
            let batch = try self.fetch(descriptor)
            for model in batch { try block(model) }
            if batch.count < descriptor.fetchLimit! { break }
            offset += batch.count
        }
    }

    // MARK: - Internal

    /// The model with an identifier: registered, or loaded from its store; nil when no such row exists.
    func resolveModel(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        if let model = registeredModel(for: identifier) { return model }
        guard let key = identifier.primaryKey,
            let store = container.store(identifier: identifier.storeIdentifier),
            let entity = container.schema.modelEntitiesByName[identifier.entityName]
        else { return nil }
        let query = SQLQuery(whereClause: "\(quoted(SQLiteTableLayout.primaryKey)) = ?1", bindings: [.integer(key)])
        guard let row = try? store.fetchRows(entity: entity, query: query).first else { return nil }
        return try? materialize(row, entity: entity, store: store)
    }

    /// The registered model for a row, refreshed with the row's values when it has no unsaved changes, or a new
    /// model registered with this context.
    func materialize(_ row: FetchedRow, entity fetched: Schema.Entity, store: SQLiteStore) throws -> any PersistentModel
    {
        try materialize(row, entity: fetched, store: store, layout: store.layouts[fetched.name]!)
    }

    /// `materialize(_:entity:store:)` with the fetched entity's layout, which callers materializing many rows look
    /// up once rather than once per row. `isUnregistered` tells that the context holds no model of the row, so its
    /// registry need not be searched: a fetch into a context that held no model knows it of every row, since a
    /// table's rows have distinct keys.
    func materialize(
        _ row: FetchedRow, entity fetched: Schema.Entity, store: SQLiteStore, layout: SQLiteTableLayout,
        isUnregistered: Bool = false
    ) throws -> any PersistentModel {
        // In a hierarchy's shared table, the type column says which class the row is.
        if let position = layout.typeColumnPosition, case .text(let name) = row.values[position], name != fetched.name,
            let concrete = store.entities.first(where: { $0.name == name }), let concreteLayout = store.layouts[name]
        {
            return try materialize(
                row, concreteEntity: concrete, store: store, layout: concreteLayout, isUnregistered: isUnregistered)
        }
        return try materialize(
            row, concreteEntity: fetched, store: store, layout: layout, isUnregistered: isUnregistered)
    }

    private func materialize(
        _ row: FetchedRow, concreteEntity entity: Schema.Entity, store: SQLiteStore, layout: SQLiteTableLayout,
        isUnregistered: Bool
    ) throws -> any PersistentModel {
        let identifier = store.identifier(entityName: entity.name, primaryKey: row.primaryKey)
        if !isUnregistered, let existing = registered[identifier]?.model {
            let storage = existing.storage
            // Each value is set inside `withMutation`, whose observers run before the value changes. One that
            // fetches the model again would refresh it again from the same row, notify itself again, and so on
            // until the stack overflows: a model being refreshed is left to the refresh in progress.
            if !storage.hasChanges && !storage.isDeleted && !storage.isRefreshing {
                storage.isRefreshing = true
                defer { storage.isRefreshing = false }
                for (index, range) in layout.columnRangeByProperty {
                    let property = entity.persistedProperties[index]
                    guard !property.isRelationship, row.loadedProperties?.contains(index) ?? true else { continue }
                    let value = try decode(row.values[range], property: property, entity: entity)
                    if !isSameStoredValue(storage.values[index], value, codec: property.codec) {
                        storage.setObserved(index, value)
                    }
                }
            }
            return existing
        }
        let slots = try newSlots(of: entity, layout: layout, loadedProperties: row.loadedProperties) {
            row.values[$0]
        }
        return registerNewModel(
            entity: entity, primaryKey: row.primaryKey, identifier: identifier, slots: slots,
            isUnregistered: isUnregistered)
    }

    /// Makes the model of a row whose values are decoded into `slots`, and registers it with this context.
    /// `isUnregistered` tells that no model of the row is registered, so the registry need not be searched.
    func registerNewModel(
        entity: Schema.Entity, primaryKey: Int64, identifier: PersistentIdentifier, slots: ModelSlots,
        isUnregistered: Bool
    ) -> any PersistentModel {
        let (model, storage) = entity.makeModel(identifier: identifier, slots: slots)
        storage.context = self
        if isUnregistered { registered.insertNew(storage) } else { registered.insert(storage) }
        // A row deleted without loading its model becomes an ordinary pending deletion once its model exists.
        if !batchDeletions.isEmpty, batchDeletions.remove(primaryKey, of: entity) {
            storage.isDeleted = true
            deleted.append(model)
        }
        return model
    }

    /// A relationship slot's stored state in a row, whose column values `column` gives by position: a fault on
    /// the target the row's foreign key names, for a to-one relationship stored in the row; not loaded for any
    /// other.
    ///
    /// - Throws: `SwiftDataError.configurationSchemaNotFoundInContainerSchema` when the target's entity has no store.
    func storedRelationship(
        _ property: Schema.Entity.Property, layout: SQLiteTableLayout, column: (Int) -> SQLiteValue
    ) throws -> Any {
        guard let info = property.relationshipInfo, case .foreignKey = info.storage,
            let range = layout.columnRangeByProperty[property.index]
        else { return ModelStorage.UnloadedRelationship() }
        guard case .integer(let key) = column(range.lowerBound) else { return ModelStorage.ToOneFault(target: nil) }
        let targetStore = try container.store(for: info.destination)
        return ModelStorage.ToOneFault(
            target: targetStore.identifier(entityName: info.destination.name, primaryKey: key))
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

    /// Reads the attributes a partial fetch left out, all at once, when one of them is first accessed.
    func loadUnfetchedAttributes(of storage: ModelStorage) {
        guard let key = storage.identifier.primaryKey, let store = try? container.store(for: storage.entity),
            let layout = store.layouts[storage.entity.name]
        else { return }
        let query = SQLQuery(whereClause: "\(quoted(SQLiteTableLayout.primaryKey)) = ?1", bindings: [.integer(key)])
        guard let row = try? store.fetchRows(entity: storage.entity, query: query).first else { return }
        for (index, range) in layout.columnRangeByProperty where storage.values[index] is ModelStorage.NotFetched {
            let property = storage.entity.persistedProperties[index]
            guard let value = try? decode(row.values[range], property: property, entity: storage.entity) else {
                continue
            }
            storage.values[index] = value
        }
    }

    /// The value of a one-column property, as `decode(_:property:entity:)` decodes it.
    func decode(_ value: SQLiteValue, property: Schema.Entity.Property, entity: Schema.Entity) throws -> Any {
        try decoding(property, of: entity, isNull: value == .null) { try property.codec!.decodeColumn(value) }
    }

    /// The value of a property decoded from its columns' values.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the property when the values do not fit its type.
    func decode(_ values: ArraySlice<SQLiteValue>, property: Schema.Entity.Property, entity: Schema.Entity)
        throws -> Any
    {
        try decoding(property, of: entity, isNull: values.allSatisfy { $0 == .null }) {
            try property.codec!.decodeColumns(values)
        }
    }

    /// What `decode` gives, with its failures explained: `isNull` tells that every column of the property is NULL.
    private func decoding(
        _ property: Schema.Entity.Property, of entity: Schema.Entity, isNull: @autoclosure () -> Bool,
        _ decode: () throws -> Any
    ) throws -> Any {
        do {
            return try decode()
        } catch  where container.isMigrationContainer && isNull() {
            // A required property a custom migration stage has not filled yet: it has no value until didMigrate
            // sets one.
            return ModelStorage.Unset()
        } catch {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the stored value of \(entity.name).\(property.name) does not fit its type \(property.valueType)",
                entityName: entity.name,
                underlying: error
            )
        }
    }
}
