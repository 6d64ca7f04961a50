/// How one fetch runs: what goes to SQL, and what runs in memory over the fetched candidates.
///
/// The fast path sends predicate, sort, limit and offset to SQLite. When the predicate or the sort has no exact
/// SQL form, or the context has unsaved changes of the entity, SQL narrows the candidates as far as it exactly
/// can and the rest runs in memory with `Predicate.evaluate` and `sorted(using:)`.
struct FetchPlan<T: PersistentModel> {
    let descriptor: FetchDescriptor<T>
    let context: ModelContext
    let entity: Schema.Entity
    let store: SQLiteStore
    private(set) var whereClause: (sql: String, bindings: [SQLiteValue])?
    private(set) var predicateInSQL: Bool
    let orderBy: String?
    let includesPending: Bool

    init(descriptor: FetchDescriptor<T>, context: ModelContext) throws {
        self.descriptor = descriptor
        self.context = context
        let entity = Schema.Entity.of(T.self)
        self.entity = entity
        self.store = try context.container.store(for: entity)
        let layout = store.layouts[entity.name]!
        let allowsInMemory = descriptor.allowsInMemoryEvaluation
        let layouts = store.layouts
        let whereClause = try descriptor.predicate.flatMap { predicate in
            try Self.sqlForm(of: "the predicate", code: .unsupportedPredicate, entity: entity, allowsInMemory) {
                try PredicateTranslation.whereClause(for: predicate, entity: entity, layouts: layouts)
            }
        }
        self.whereClause = whereClause
        self.predicateInSQL = descriptor.predicate == nil || whereClause != nil
        self.orderBy = try Self.sqlForm(
            of: "the sort", code: .unsupportedSortDescriptor, entity: entity, allowsInMemory
        ) {
            try SortTranslation.orderBy(descriptor.sortBy, entity: entity, layout: layout)
        }
        self.includesPending = descriptor.includePendingChanges && context.hasPendingChanges(of: entity)
    }

    /// What a translation gives, or nil when the part has no SQL form and may run in memory.
    ///
    /// - Throws: a `SwiftDataError` with `code`, saying why, when the descriptor forbids evaluation in memory.
    private static func sqlForm<Form>(
        of part: String,
        code: SwiftDataError.Code,
        entity: Schema.Entity,
        _ allowsInMemory: Bool,
        _ translate: () throws -> Form
    ) throws -> Form? {
        do {
            return try translate()
        } catch let reason as UnsupportedPredicateNode {
            guard allowsInMemory else {
                throw SwiftDataError(code, "\(part) cannot run in SQL: \(reason.reason)", entityName: entity.name)
            }
            return nil
        }
    }

    /// True when SQL computes the whole result, limit and offset included.
    private var runsInSQL: Bool { predicateInSQL && orderBy != nil && !includesPending }

    private var baseQuery: SQLQuery {
        var query = SQLQuery(whereClause: whereClause?.sql, bindings: whereClause?.bindings ?? [])
        // A subclass's rows share its root's table: keep the rows of the subclass and of its own subclasses.
        if entity.superentityType != nil {
            let names = entity.hierarchyNames.map(sqlStringLiteral)
            let filter =
                "\(quoted(entity.tableName)).\(quoted(SQLiteTableLayout.typeColumn)) IN (\(names.joined(separator: ", ")))"
            query.whereClause = query.whereClause.map { "(\($0)) AND \(filter)" } ?? filter
        }
        // Rows deleted without loading their models stay in the table until the save.
        if let deleted = context.batchDeletions.keySet(of: entity) {
            let condition = deleted.condition(
                on: "\(quoted(entity.tableName)).\(quoted(SQLiteTableLayout.primaryKey))",
                firstParameter: query.bindings.count + 1)
            let filter = "NOT (\(condition.sql))"
            query.whereClause = query.whereClause.map { "(\($0)) AND \(filter)" } ?? filter
            query.bindings += condition.bindings
        }
        return query
    }

    // MARK: - Results

    func models() throws -> [T] {
        let models: [T]
        do {
            models = try matchingModels()
        } catch let error as SwiftDataError where error.asksForInMemoryEvaluation {
            models = try predicateInMemory(after: error).matchingModels()
        }
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
        return models
    }

    private func matchingModels() throws -> [T] {
        if runsInSQL {
            var query = baseQuery
            query.orderBy = orderBy
            query.limit = descriptor.fetchLimit
            query.offset = descriptor.fetchOffset
            return try models(matching: query, properties: requestedProperties)
        }
        return page(try candidatesInMemory())
    }

    func count() throws -> Int {
        if predicateInSQL && !includesPending {
            var query = baseQuery
            query.limit = descriptor.fetchLimit
            query.offset = descriptor.fetchOffset
            do {
                return try store.count(entity: entity, query: query)
            } catch let error as SwiftDataError where error.asksForInMemoryEvaluation {
                return try predicateInMemory(after: error).models().count
            }
        }
        return try models().count
    }

    func identifiers() throws -> [PersistentIdentifier] {
        if runsInSQL {
            var query = baseQuery
            query.orderBy = orderBy
            query.limit = descriptor.fetchLimit
            query.offset = descriptor.fetchOffset
            do {
                return try store.fetchPrimaryKeys(entity: entity, query: query).map {
                    store.identifier(entityName: entity.name, primaryKey: $0)
                }
            } catch let error as SwiftDataError where error.asksForInMemoryEvaluation {
                return try predicateInMemory(after: error).models().map(\.persistentModelID)
            }
        }
        return try models().map(\.persistentModelID)
    }

    /// The primary keys of every row that matches, when the predicate runs in SQL and nothing is pending.
    func primaryKeys() throws -> [Int64] {
        precondition(predicateInSQL && !includesPending, "primaryKeys() needs a plan that runs in SQL")
        return try store.fetchPrimaryKeys(entity: entity, query: baseQuery)
    }

    /// True when results can be read in primary-key order in pages (no sort, everything in SQL).
    var canPageByPrimaryKey: Bool { runsInSQL && descriptor.sortBy.isEmpty }

    /// The next page of results in primary-key order, after a key.
    func models(afterPrimaryKey key: Int64, limit: Int) throws -> [T] {
        var query = baseQuery
        let after = "\(quoted(entity.tableName)).\(quoted(SQLiteTableLayout.primaryKey)) > ?\(query.bindings.count + 1)"
        query.whereClause = query.whereClause.map { "(\($0)) AND \(after)" } ?? after
        query.bindings.append(.integer(key))
        query.orderBy = quoted(SQLiteTableLayout.primaryKey)
        query.limit = limit
        return try models(matching: query, properties: requestedProperties)
    }

    // MARK: - Internal

    /// This plan with the predicate evaluated in memory, for when SQL stopped a query because Swift must decide
    /// (see `SQLiteFunctions`).
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate`, naming the entity, when the descriptor forbids evaluation in
    ///   memory.
    private func predicateInMemory(after error: SwiftDataError) throws -> FetchPlan {
        guard descriptor.allowsInMemoryEvaluation else {
            throw SwiftDataError(
                .unsupportedPredicate,
                "the predicate cannot run in SQL for every row: a row meets a force unwrap of nil or a division by "
                    + "zero, which only an evaluation in memory can decide",
                entityName: entity.name,
                underlying: error
            )
        }
        var plan = self
        plan.whereClause = nil
        plan.predicateInSQL = descriptor.predicate == nil
        return plan
    }

    /// The models of the rows a query selects, reading `propertiesToFetch` (or every column).
    private func models(matching query: SQLQuery, properties: Set<Int>? = nil) throws -> [T] {
        let layout = store.layouts[entity.name]!
        let (keys, models, _) = try context.readModels(
            of: entity, store: store, layout: layout, query: query, properties: properties)
        let typed = models.map { exactCast($0, to: T.self) }
        remember(typed, keys: keys)
        return typed
    }

    /// Makes models with relationships remember the fetch that read them, and their keys, so that a relationship
    /// read lazily loads for all of them in one batch.
    private func remember(_ models: [T], keys: @autoclosure () -> [Int64]) {
        guard models.count > 1, entity.hasRelationships else { return }
        let group = FetchGroup(entity: entity, keys: keys())
        for (index, model) in models.enumerated() {
            model.storage.fetchGroup = group
            model.storage.fetchGroupIndex = index
        }
    }

    /// The slot indexes `propertiesToFetch` names, or nil to read every column. Attributes with no placeholder
    /// (`Schema.Entity.Property.placeholderValue`) are read too: one left out could not be read at all once its
    /// row is gone.
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

    /// Every model that matches, filtered and sorted in memory.
    private func candidatesInMemory() throws -> [T] {
        // With pending changes, every row of the entity is a candidate: a changed model may match now.
        var plan = self
        if includesPending { plan.whereClause = nil }
        var query = plan.baseQuery
        query.orderBy = quoted(SQLiteTableLayout.primaryKey)
        var models = try plan.models(matching: query)
        if includesPending {
            models.removeAll { $0.storage.isDeleted }
            var seen = Set(models.map { ObjectIdentifier($0) })
            for case let model as T in context.inserted.models where seen.insert(ObjectIdentifier(model)).inserted {
                models.append(model)
            }
        }
        if let predicate = descriptor.predicate, includesPending || !predicateInSQL {
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
