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
    /// On a store that reads through a cursor (PostgreSQL's), the batches come from one cursor, in one read-only
    /// transaction, for the whole enumeration: each batch sees the store as the first one did, and a save the block
    /// makes, or another context makes meanwhile, does not show in the batches that follow. A model this context
    /// holds already is delivered as it holds it, not set back to the state the cursor reads.
    ///
    /// On other stores, an enumeration with no sort, of a context with no unsaved changes, reads each batch after
    /// the last identifier of the one before. Any other reads the identifiers of the matching models first, unsaved
    /// models included, and then their models a batch at a time: each model that matched when the enumeration
    /// began is delivered once, in the descriptor's order then, even when the block changes what it is sorted by,
    /// and a model deleted before its turn (by the block, or by a save elsewhere before its batch is read) is left
    /// out. These batches read whole rows, whatever `propertiesToFetch` names; the relationships the descriptor
    /// prefetches are read for each batch.
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
        // Models delivered by a cursor or keyset paging before the store refused a batch, which paging by offset
        // continues.
        var delivered = 0
        if plan.runsInStore && plan.store.readsThroughCursors {
            // One cursor in the store for the whole enumeration: each batch continues where the last one ended,
            // sorted or not, and every batch sees the store as the first one did.
            let cursor = StoreCursor(pageSize: batchSize)
            let enclosing = rowsDeletedDuringEnumeration
            rowsDeletedDuringEnumeration = enclosing ?? []
            defer {
                plan.store.closeCursor(cursor)
                if enclosing == nil { rowsDeletedDuringEnumeration = nil }
            }
            do {
                while true {
                    let (batch, read) = try plan.models(through: cursor)
                    for model in batch {
                        // One the context deletes without saving yet is left out, as a fetch leaves it out.
                        if model.storage.isDeleted || deleted.contains(model) { continue }
                        try block(model)
                    }
                    // Rows read, delivered or not: the position a fallback to paging by offset continues from.
                    delivered += read
                    if read < cursor.pageSize { return }
                }
            } catch is StoreCannotEvaluate {
                // As below: the rest pages by offset, evaluating the predicate in memory.
            }
        } else if plan.canPageByIdentifier {
            // Keyset paging: each batch continues after the last identifier, so every batch costs the same.
            var remaining = fetch.fetchLimit ?? Int.max
            var skip = fetch.fetchOffset ?? 0
            var lastIdentifier: PersistentIdentifier?
            do {
                while remaining > 0 {
                    let batch = try plan.models(
                        after: lastIdentifier, limit: min(max(1, batchSize), remaining + skip))
                    guard let last = batch.last?.storage.identifier else { break }
                    lastIdentifier = last
                    let used = batch.dropFirst(min(skip, batch.count))
                    skip -= batch.count - used.count
                    for model in used.prefix(remaining) {
                        try block(model)
                        delivered += 1
                    }
                    remaining -= min(remaining, used.count)
                    if batch.count < max(1, batchSize) { break }
                }
                return
            } catch is StoreCannotEvaluate {
                // The store stopped at a row only Swift can decide: the rest pages by offset, through `fetch`,
                // which evaluates the predicate in memory (or throws the typed error when that is not allowed).
            }
        }
        // Otherwise (a sort the store runs, unsaved changes, what only Swift evaluates), the matching identifiers
        // are read once, unsaved models included, and then their models a batch at a time: every row is read
        // once, where paging by offset read each batch's preceding rows again, and each model that matched is
        // delivered once, however the block changes the order.
        var descriptor = fetch
        descriptor.fetchOffset = (fetch.fetchOffset ?? 0) + delivered
        if let limit = fetch.fetchLimit {
            guard limit > delivered else { return }
            descriptor.fetchLimit = limit - delivered
        }
        applyExternalChanges()
        let rest = try FetchPlan(descriptor: descriptor, context: self)
        let identifiers = try rest.identifiers()
        let unsaved = unsavedModels(listedIn: identifiers)
        let size = max(1, batchSize)
        for start in stride(from: 0, to: identifiers.count, by: size) {
            // Saves elsewhere since the last batch show, as they do to a fetch: a model deleted meanwhile is left out.
            applyExternalChanges()
            let batch = try existingModels(
                for: identifiers[start..<min(start + size, identifiers.count)], unsaved: unsaved
            )
            .map { exactCast($0, to: T.self) }
            try rest.prefetchRelationships(of: batch)
            // Checked at each model's turn: the block may delete models of its batch that come later.
            for model in batch where !model.storage.isDeleted && !deleted.contains(model) { try block(model) }
        }
    }

    // MARK: - Internal

    /// The models of identifiers a fetch read, in their order: unsaved ones from `unsaved`, the others as this
    /// context holds them or read in one query per entity. Rows gone from the store are left out; models deleted
    /// in this context are not (a caller checks at each model's turn).
    func existingModels(
        for identifiers: ArraySlice<PersistentIdentifier>, unsaved: [PersistentIdentifier: any PersistentModel]
    ) throws -> [any PersistentModel] {
        var stored: [String: [PersistentIdentifier]] = [:]
        for identifier in identifiers where !identifier.isTemporary {
            stored[identifier.entityName, default: []].append(identifier)
        }
        var found: [PersistentIdentifier: any PersistentModel] = [:]
        for (entityName, wanted) in stored {
            guard let entity = container.schema.modelEntitiesByName[entityName] else { continue }
            found.merge(try modelsByIdentifier(of: entity, identifiers: wanted)) { first, _ in first }
        }
        return identifiers.compactMap { unsaved[$0] ?? found[$0] }
    }

    /// The unsaved models among identifiers a fetch read, by those identifiers: a save gives them new ones, so
    /// whatever reads the models later finds them by the identifiers it read.
    func unsavedModels(listedIn identifiers: [PersistentIdentifier]) -> [PersistentIdentifier: any PersistentModel] {
        guard identifiers.contains(where: \.isTemporary) else { return [:] }
        let listed = Set(identifiers.filter(\.isTemporary))
        var unsaved: [PersistentIdentifier: any PersistentModel] = [:]
        for model in inserted.models where listed.contains(model.storage.identifier) {
            unsaved[model.storage.identifier] = model
        }
        return unsaved
    }

    /// The model with an identifier: registered, or loaded from its store; nil when no such row exists.
    ///
    /// - Throws: what reading the store throws (an I/O error, a busy store, a stored value that does not fit its
    ///   type): the row may well exist, so a caller must never take the failure for a deletion (see
    ///   `unreadModel(for:lastKnown:namesRowClass:)`).
    func resolveModel(for identifier: PersistentIdentifier) throws -> (any PersistentModel)? {
        if let model = registeredModel(for: identifier) { return model }
        guard !identifier.isTemporary, let store = container.store(identifier: identifier.storeIdentifier),
            let entity = container.schema.modelEntitiesByName[identifier.entityName]
        else { return nil }
        let request = StoreReadRequest(entity: entity, selection: .identifiers([identifier]))
        return try readModels(request, from: store).first
    }

    /// The model with an identifier that names its row's class, as a model's `persistentModelID` does: as
    /// `resolveModel(for:)` finds it, or, when the store cannot be read, a model of the row that loads its values on
    /// first access (`unreadModel(for:lastKnown:namesRowClass:)`); nil when no such row exists.
    func existingModel(for identifier: PersistentIdentifier) -> (any PersistentModel)? {
        do {
            return try resolveModel(for: identifier)
        } catch {
            return unreadModel(for: identifier, namesRowClass: true)
        }
    }

    /// What a to-one relationship's target resolves to: the model of its row (registered, or read now); else,
    /// when the row is gone, the model of a vanished row that `lastKnown` makes of what a batched fetch kept.
    func resolveTarget(_ target: PersistentIdentifier, lastKnown: LastKnownValues?) -> TargetResolution {
        do {
            if let model = try resolveModel(for: target) ?? lastKnown?.vanishedModel(for: target) {
                return .model(model)
            }
            return .gone
        } catch {
            // The row was not read, so it is not known to be gone: it stays the target.
            if let model = unreadModel(for: target, lastKnown: lastKnown, namesRowClass: false) {
                return .model(model)
            }
            return .unreadable
        }
    }

    /// What `resolveTarget(_:lastKnown:)` found.
    enum TargetResolution {
        /// The target's model.
        case model(any PersistentModel)
        /// The target's row is gone.
        case gone
        /// The store could not be read, and no model of the target could be made (its class is not known): the
        /// relationship reads as having no target this time only, and the next read tries the store again.
        case unreadable
    }

    /// A model, registered with this context, of a row the store failed to read: each attribute and relationship
    /// loads from the store on first access (until then, those a batched fetch kept in `lastKnown` hold their
    /// values), as after a fetch with `propertiesToFetch`, so a read that failed leaves the row there rather than
    /// gone, and the next access tries the store again.
    ///
    /// Nil when the row's class is not known: the identifier names a class with subclasses, `namesRowClass` says
    /// it may name a superclass of the row's (a to-one target's identifier names the relationship's destination),
    /// and `lastKnown` kept nothing of the row; a model of the wrong class must not stand for it.
    func unreadModel(for identifier: PersistentIdentifier, lastKnown: LastKnownValues? = nil, namesRowClass: Bool)
        -> (any PersistentModel)?
    {
        if let lastKnown, let row = lastKnown.row(at: nil, identifier: identifier) {
            return unloadedModel(of: row.entity, identifier: row.identifier, kept: lastKnown.keptSlots(of: row))
        }
        guard !identifier.isTemporary, let entity = container.schema.modelEntitiesByName[identifier.entityName],
            namesRowClass || entity.hierarchyNames.count == 1
        else { return nil }
        return unloadedModel(of: entity, identifier: identifier)
    }

    /// A registered model of a row that was not read: the slots in `kept` hold their values, every other attribute
    /// is left not fetched and every other relationship not loaded, so each loads from the store on first access.
    func unloadedModel(of entity: Schema.Entity, identifier: PersistentIdentifier, kept: [Int: Any] = [:])
        -> any PersistentModel
    {
        let slots = ModelSlots(count: entity.persistedProperties.count) { index -> Any in
            if let value = kept[index] { return value }
            let property = entity.persistedProperties[index]
            if property.isRelationship { return ModelStorage.UnloadedRelationship() }
            return property.codec == nil ? property.unstoredValue : ModelStorage.NotFetched()
        }
        holdsUnfetchedAttributes = true
        return registerNewModel(entity: entity, identifier: identifier, slots: slots, isUnregistered: false)
    }

    /// Reads the attributes a partial fetch left out, all at once, when one of them is first accessed.
    func loadUnfetchedAttributes(of storage: ModelStorage) {
        guard !storage.identifier.isTemporary, let store = try? container.store(for: storage.entity) else { return }
        var request = StoreReadRequest(entity: storage.entity, selection: .identifiers([storage.identifier]))
        request.editingState = editingState
        try? store.readRows(request) { row in
            for property in storage.entity.persistedProperties
            where storage.values[property.index] is ModelStorage.NotFetched && row.holdsValue(of: property) {
                guard let value = try? row.value(of: property) else { continue }
                storage.values[property.index] = value
            }
        }
    }

    /// The value an attribute has in a row of `entity` that holds one that can be read, the first in key order
    /// among the first few; nil when there is none or the store cannot be read. What an attribute whose own row is
    /// lost reads when SwiftData can make no value of its type (see `ModelStorage.unfetchedAttribute(at:)`).
    func storedValue(of property: Schema.Entity.Property, in entity: Schema.Entity) -> Any? {
        guard let store = try? container.store(for: entity) else { return nil }
        return storedValue(of: property, in: entity, from: store)
    }

    private func storedValue<Store: ModelStore>(
        of property: Schema.Entity.Property, in entity: Schema.Entity, from store: Store
    ) -> Any? {
        var request = StoreReadRequest(entity: entity)
        request.properties = [property.index]
        request.ordersByIdentifier = true
        request.limit = 16
        var rows: [Store.Row] = []
        // Decoded once the read is over: decoding runs code of the app.
        guard (try? store.readRows(request, { rows.append($0.retained()) })) != nil else { return nil }
        for row in rows {
            // A row of a subclass numbers its properties its own way.
            let own = row.entity === entity ? property : row.entity.property(named: property.name) ?? property
            guard row.holdsValue(of: own), let value = try? row.value(of: own) else { continue }
            return value
        }
        return nil
    }
}
