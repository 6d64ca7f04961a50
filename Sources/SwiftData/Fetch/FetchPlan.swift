/// How one fetch runs: what its store evaluates, and what runs in memory over the fetched candidates.
///
/// The fast path gives the store predicate, sort, limit and offset. When the store cannot evaluate the predicate or
/// the sort exactly as Swift does, or the context has unsaved changes of the entity, the store narrows the
/// candidates as far as it exactly can and the rest runs in memory with `Predicate.evaluate` and
/// `sorted(using:)`.
struct FetchPlan<T: PersistentModel> {
    let descriptor: FetchDescriptor<T>
    let context: ModelContext
    let entity: Schema.Entity
    let store: any ModelStore
    private(set) var filter: (any StoreFilter)?
    private(set) var predicateInStore: Bool
    private(set) var sortOrder: (any StoreSortOrder)?
    let includesPending: Bool

    init(descriptor: FetchDescriptor<T>, context: ModelContext) throws {
        self.descriptor = descriptor
        self.context = context
        let entity = Schema.Entity.of(T.self)
        self.entity = entity
        let store = try context.container.store(for: entity)
        self.store = store
        let allowsInMemory = descriptor.allowsInMemoryEvaluation
        let filter = try descriptor.predicate.flatMap { predicate in
            try Self.storeForm(of: "the predicate", code: .unsupportedPredicate, entity: entity, allowsInMemory) {
                try store.filter(for: predicate, entity: entity)
            }
        }
        self.filter = filter
        self.predicateInStore = descriptor.predicate == nil || filter != nil
        self.sortOrder = try Self.storeForm(
            of: "the sort", code: .unsupportedSortDescriptor, entity: entity, allowsInMemory
        ) {
            try store.sortOrder(for: descriptor.sortBy, entity: entity)
        }
        // A predicate that reads related rows sees their unsaved changes only in memory, whatever entity they are.
        self.includesPending =
            descriptor.includePendingChanges
            && (context.hasPendingChanges(of: entity) || (filter?.readsOtherRows == true && context.hasChanges))
    }

    /// What the store makes of a part, or nil when it cannot evaluate it and the part may run in memory.
    ///
    /// - Throws: a `SwiftDataError` with `code`, saying why, when the descriptor forbids evaluation in memory.
    private static func storeForm<Form>(
        of part: String,
        code: SwiftDataError.Code,
        entity: Schema.Entity,
        _ allowsInMemory: Bool,
        _ translate: () throws -> Form
    ) throws -> Form? {
        do {
            return try translate()
        } catch let refusal as StoreCannotEvaluate {
            guard allowsInMemory else {
                throw SwiftDataError(
                    code, "\(part) cannot run in the store: \(refusal.reason)", entityName: entity.name)
            }
            return nil
        }
    }

    /// True when the store computes the whole result, limit and offset included.
    var runsInStore: Bool { predicateInStore && sortOrder != nil && !includesPending }

    /// True when, with unsaved changes, the store still filters, sorts and limits the rows no unsaved change
    /// touches, and only the context's changed and inserted models are evaluated in memory: when the store orders
    /// equal rows by their keys, and the predicate reads each row's own values only (a related model's unsaved
    /// values are in memory, not in its row).
    var mergesPendingChanges: Bool {
        predicateInStore && sortOrder != nil && includesPending && keepsPendingRowsApart
    }

    /// True when the store can read the rows no unsaved change touches apart from the rest (see
    /// `mergesPendingChanges`); the sort need not run in the store.
    private var keepsPendingRowsApart: Bool {
        store.ordersIdentifiersByPrimaryKey && !(filter?.readsOtherRows ?? false)
    }

    /// A read of the rows the predicate selects (as far as the store evaluates it), less those deleted without
    /// loading.
    private var baseRequest: StoreReadRequest {
        var request = StoreReadRequest(entity: entity)
        request.filter = filter
        request.excluded = context.batchDeletions.excludedRows(of: entity)
        request.editingState = context.editingState
        return request
    }

    // MARK: - Results

    func models() throws -> [T] {
        let models = try evaluatingRefusedPartsInMemory { try $0.matchingModels() }
        try prefetchRelationships(of: models)
        return models
    }

    /// The next page of results from a cursor of the store, with the relationships the descriptor prefetches, and
    /// how many rows the page read: the first call opens the cursor, and a page shorter than the cursor's page size
    /// is the last. Rows deleted since the cursor opened (`ModelContext.rowsDeletedDuringEnumeration`) are left out,
    /// and the models read of them unregistered before anything links to them. Only for a plan that runs in the
    /// store, on a store that reads through cursors.
    ///
    /// - Throws: like `models()`, and `StoreCannotEvaluate` when the store stopped at a row only Swift can decide:
    ///   the rest of the results then come from a plan that evaluates in memory.
    func models(through cursor: StoreCursor) throws -> (models: [T], read: Int) {
        precondition(runsInStore && store.readsThroughCursors, "models(through:) needs a plan the store runs")
        var request = baseRequest
        request.sortOrder = sortOrder
        request.limit = descriptor.fetchLimit
        request.offset = descriptor.fetchOffset
        request.properties = requestedProperties
        request.cursor = cursor
        var models = try models(matching: request)
        let read = models.count
        if let gone = context.rowsDeletedDuringEnumeration, !gone.isEmpty {
            models.removeAll { model in
                guard gone.contains(model.storage.identifier) else { return false }
                // A model of a row that is gone, made by this read: nothing links to it yet.
                if !model.storage.isDeleted { context.forgetModelOfDeletedRow(model.storage) }
                return true
            }
        }
        try prefetchRelationships(of: models)
        return (models, read)
    }

    /// Loads the relationships the descriptor prefetches, for all of `models` at once.
    ///
    /// - Throws: `SwiftDataError.unsupportedKeyPath` for a key path that is not a relationship, and what loading
    ///   them throws.
    func prefetchRelationships(of models: [T]) throws {
        for keyPath in descriptor.relationshipKeyPathsForPrefetching {
            guard let index = entity.indexIfPersisted(keyPath), entity.persistedProperties[index].isRelationship else {
                throw SwiftDataError(
                    .unsupportedKeyPath,
                    "\(keyPath) is not a relationship of \(entity.name) and cannot be prefetched",
                    entityName: entity.name
                )
            }
            try context.prefetch(entity.persistedProperties[index], of: models.map(\.storage))
        }
    }

    private func matchingModels() throws -> [T] {
        if runsInStore {
            var request = baseRequest
            request.sortOrder = sortOrder
            request.limit = descriptor.fetchLimit
            request.offset = descriptor.fetchOffset
            request.properties = requestedProperties
            return try models(matching: request)
        }
        if mergesPendingChanges { return try mergingPendingChanges() }
        return page(try candidatesInMemory())
    }

    func count() throws -> Int {
        if predicateInStore && includesPending && keepsPendingRowsApart {
            let pending = try pendingChanges()
            var request = baseRequest
            request.excluded = pending.excluded
            do {
                let stored = try store.count(request)
                let total = stored + (try matching(pending.changed).count) + (try matching(pending.inserted).count)
                let skipped = min(max(descriptor.fetchOffset ?? 0, 0), total)
                return descriptor.fetchLimit.map { min(total - skipped, max($0, 0)) } ?? total - skipped
            } catch let refusal as StoreCannotEvaluate {
                return try partInMemory(after: refusal).models().count
            }
        }
        if predicateInStore && !includesPending {
            var request = baseRequest
            request.limit = descriptor.fetchLimit
            request.offset = descriptor.fetchOffset
            do {
                return try store.count(request)
            } catch let refusal as StoreCannotEvaluate {
                return try partInMemory(after: refusal).models().count
            }
        }
        return try models().count
    }

    func identifiers() throws -> [PersistentIdentifier] {
        if runsInStore {
            var request = baseRequest
            request.sortOrder = sortOrder
            request.limit = descriptor.fetchLimit
            request.offset = descriptor.fetchOffset
            do {
                return try store.identifiers(request)
            } catch let refusal as StoreCannotEvaluate {
                return try partInMemory(after: refusal).models().map(\.persistentModelID)
            }
        }
        return try models().map(\.persistentModelID)
    }

    /// The identifiers of the matching models, as `identifiers()` reads them, with what a batched fetch keeps of
    /// their rows (`LastKnownValues`): read with the identifiers when the store computes the result, else taken
    /// from the models the fetch reads in full.
    ///
    /// - Throws: like `identifiers()`, and `SwiftDataError.loadIssueModelContainer` when a kept value does not fit
    ///   its type.
    func identifiersWithLastKnownValues() throws -> ([PersistentIdentifier], LastKnownValues) {
        let lastKnown = LastKnownValues(container: context.container)
        let identifiers = try evaluatingRefusedPartsInMemory { plan in
            guard plan.runsInStore else {
                let models = try plan.models()
                try lastKnown.capture(models, of: entity)
                return models.map(\.persistentModelID)
            }
            var request = plan.baseRequest
            request.sortOrder = plan.sortOrder
            request.limit = descriptor.fetchLimit
            request.offset = descriptor.fetchOffset
            return try lastKnown.read(request, from: store) ?? store.identifiers(request)
        }
        return (identifiers, lastKnown)
    }

    /// The identifiers of every row that matches, in no particular order, when the store evaluates the predicate
    /// and nothing is pending.
    func storedIdentifiers() throws -> [PersistentIdentifier] {
        precondition(predicateInStore && !includesPending, "storedIdentifiers() needs a plan the store runs")
        return try store.identifiers(baseRequest)
    }

    /// True when results can be read in identifier order in pages (no sort, everything in the store).
    var canPageByIdentifier: Bool { runsInStore && descriptor.sortBy.isEmpty }

    /// The next page of results in identifier order, after an identifier (from the first, with nil).
    func models(after identifier: PersistentIdentifier?, limit: Int) throws -> [T] {
        var request = baseRequest
        request.after = identifier
        request.ordersByIdentifier = true
        request.limit = limit
        request.properties = requestedProperties
        return try models(matching: request)
    }

    // MARK: - Internal

    /// What `body` gives for this plan, or, when the store refuses a part of it while reading (it stopped because
    /// only Swift can decide a row, or it cannot filter or sort at all), for this plan with that part in memory.
    ///
    /// - Throws: what `partInMemory(after:)` throws, and what `body` throws otherwise.
    private func evaluatingRefusedPartsInMemory<Result>(_ body: (FetchPlan) throws -> Result) throws -> Result {
        var plan = self
        while true {
            do {
                return try body(plan)
            } catch let refusal as StoreCannotEvaluate {
                plan = try plan.partInMemory(after: refusal)
            }
        }
    }

    /// This plan with the part a store refused while reading evaluated in memory.
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` or `.unsupportedSortDescriptor`, naming the entity, when the
    ///   descriptor forbids evaluation in memory, or when the store refuses a part the plan no longer gives it.
    private func partInMemory(after refusal: StoreCannotEvaluate) throws -> FetchPlan {
        let (code, part, isGiven) =
            switch refusal.part {
            case .predicate: (SwiftDataError.Code.unsupportedPredicate, "predicate", filter != nil)
            case .sort: (SwiftDataError.Code.unsupportedSortDescriptor, "sort", sortOrder != nil)
            }
        guard descriptor.allowsInMemoryEvaluation, isGiven else {
            throw SwiftDataError(
                code,
                "the \(part) of a fetch of \(entity.name) cannot run in the store for every row: \(refusal.reason)",
                entityName: entity.name
            )
        }
        var plan = self
        switch refusal.part {
        case .predicate:
            plan.filter = nil
            plan.predicateInStore = descriptor.predicate == nil
        case .sort:
            plan.sortOrder = nil
        }
        return plan
    }

    /// The models of the rows a request selects.
    private func models(matching request: StoreReadRequest) throws -> [T] {
        let models = try context.readModels(request, from: store)
        let typed = models.map { exactCast($0, to: T.self) }
        remember(typed)
        return typed
    }

    /// Makes models with relationships remember the fetch that read them, and their identifiers, so that a
    /// relationship read lazily loads for all of them in one batch.
    private func remember(_ models: [T]) {
        guard models.count > 1, entity.hasRelationships else { return }
        // A closure, not a key path: a key path runs unspecialized, reading each model through the run time.
        let group = FetchGroup(entity: entity, identifiers: models.map { $0.storage.identifier })
        for (index, model) in models.enumerated() {
            model.storage.fetchGroup = group
            model.storage.fetchGroupIndex = index
        }
    }

    /// The slot indexes `propertiesToFetch` names, or nil to read every column. Attributes with no placeholder
    /// (`Schema.Entity.Property.placeholderValue`) are read too, every one whose type SwiftData can make no value
    /// of among them: once its row is gone, one left out would read a value made of its type, another row's value,
    /// or, with neither, stop the program (see `ModelStorage.unfetchedAttribute(at:)`).
    private var requestedProperties: Set<Int>? {
        guard !descriptor.propertiesToFetch.isEmpty else { return nil }
        // A subclass's own attributes are read only with every column: when one has no placeholder, read them all.
        var pending = Array(entity.knownSubentities)
        let baseNames = Set(entity.persistedProperties.map(\.name))
        while let subentity = pending.popLast() {
            if subentity.persistedProperties.contains(where: {
                !$0.isRelationship && !baseNames.contains($0.name) && $0.placeholderValue == nil
            }) {
                return nil
            }
            pending += subentity.knownSubentities
        }
        var properties = Set(descriptor.propertiesToFetch.compactMap { entity.indexIfPersisted($0) })
        // A `let` is read back only while its model is made, so it is always read too.
        for property in entity.persistedProperties
        where !property.isRelationship && !properties.contains(property.index)
            && (property.placeholderValue == nil || property.isConstant)
        {
            properties.insert(property.index)
        }
        return properties
    }

    /// The context's unsaved changes of the entity's table: its changed models of the fetched type whose rows still
    /// exist (another context may have deleted one), its inserted ones, both in the order the context holds them,
    /// and every row a read of stored rows leaves out (the changed and deleted models' rows, and rows deleted
    /// without loading).
    private func pendingChanges() throws -> (changed: [T], inserted: [T], excluded: ExcludedRows) {
        let table = entity.tableName
        var excluded = context.batchDeletions.excludedRows(of: entity)?.identifiers ?? []
        var changed: [T] = []
        for model in context.changed.models where model.storage.entity.tableName == table {
            excluded.insert(model.storage.identifier)
            if let model = model as? T, !model.storage.isDeleted { changed.append(model) }
        }
        for model in context.deleted.models where model.storage.entity.tableName == table {
            excluded.insert(model.storage.identifier)
        }
        let inserted = context.inserted.models.compactMap { $0.storage.entity.tableName == table ? $0 as? T : nil }
        if !changed.isEmpty {
            let request = StoreReadRequest(entity: entity, selection: .identifiers(changed.map(\.storage.identifier)))
            let stored = Set(try store.identifiers(request))
            changed.removeAll { !stored.contains($0.storage.identifier) }
        }
        return (changed, inserted, ExcludedRows(excluded))
    }

    /// The models the predicate selects, evaluated in memory.
    private func matching(_ models: [T]) throws -> [T] {
        guard let predicate = descriptor.predicate else { return models }
        do {
            return try models.filter { try predicate.evaluate($0) }
        } catch {
            throw SwiftDataError(
                .unsupportedPredicate, "the predicate could not be evaluated", entityName: entity.name,
                underlying: error)
        }
    }

    /// The page of results with unsaved changes, from the stored rows the store selects, sorts and limits (the
    /// rows of changed and deleted models left out) merged with the changed and inserted models that match now.
    ///
    /// The result is the one `candidatesInMemory()` gives: every candidate in identifier order, the inserted
    /// models after them, sorted stably. The page can hold at most its offset plus its limit of the stored rows,
    /// which come first among equals by their primary keys, so the store reads no more than those.
    private func mergingPendingChanges() throws -> [T] {
        let pending = try pendingChanges()
        var request = baseRequest
        request.excluded = pending.excluded
        request.sortOrder = sortOrder
        if let limit = descriptor.fetchLimit {
            let (end, overflow) = max(descriptor.fetchOffset ?? 0, 0).addingReportingOverflow(max(limit, 0))
            if !overflow { request.limit = end }
        }
        // Whole rows: the merged results are sorted in memory, by attributes `propertiesToFetch` may leave out.
        var stored = try models(matching: request) + matching(pending.changed)
        stored.sort { ($0.storage.identifier.primaryKey ?? 0) < ($1.storage.identifier.primaryKey ?? 0) }
        var candidates = stored + (try matching(pending.inserted))
        if !descriptor.sortBy.isEmpty { candidates.sort(using: descriptor.sortBy) }
        return page(candidates)
    }

    /// Every model that matches, filtered and sorted in memory.
    private func candidatesInMemory() throws -> [T] {
        // With pending changes, every row of the entity is a candidate: a changed model may match now.
        var plan = self
        if includesPending { plan.filter = nil }
        var request = plan.baseRequest
        request.ordersByIdentifier = true
        var models = try plan.models(matching: request)
        if includesPending {
            models.removeAll { $0.storage.isDeleted }
            var seen = Set(models.map { ObjectIdentifier($0) })
            for case let model as T in context.inserted.models where seen.insert(ObjectIdentifier(model)).inserted {
                models.append(model)
            }
        }
        if let predicate = descriptor.predicate, includesPending || !predicateInStore {
            do {
                models = try models.filter { try predicate.evaluate($0) }
            } catch {
                throw SwiftDataError(
                    .unsupportedPredicate, "the predicate could not be evaluated", entityName: entity.name,
                    underlying: error)
            }
        }
        if !descriptor.sortBy.isEmpty { models.sort(using: descriptor.sortBy) }
        return models
    }

    private func page(_ models: [T]) -> [T] {
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), models.count)
        let end = descriptor.fetchLimit.map { min(models.count, offset + max($0, 0)) } ?? models.count
        return Array(models[offset..<end])
    }
}

extension ModelContext {
    /// True when unsaved inserts, changes or deletions involve an entity.
    func hasPendingChanges(of entity: Schema.Entity) -> Bool {
        // The entities of a hierarchy share a table, and a fetch of one may return the others.
        let involved = { (model: any PersistentModel) in model.storage.entity.tableName == entity.tableName }
        return inserted.models.contains(where: involved) || changed.models.contains(where: involved)
            || deleted.models.contains(where: involved)
    }
}
