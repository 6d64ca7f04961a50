extension SQLiteStore: SQLTranslatingStore {
    var sqlDialect: any SQLDialect { dialect }
}

extension SQLiteStore: ModelStore {
    var name: String { configuration.name }
    var allowsSave: Bool { configuration.allowsSave }
    var writesInTransaction: Bool { true }

    // MARK: - Reading

    func readRows(_ request: StoreReadRequest, _ body: (SQLiteRow) throws -> Void) throws {
        let entity = request.entity
        let layout = try layout(of: entity)
        let query = try query(for: request)
        try translatingEvaluationStops {
            // Rows that decode without code of the app go to `body` while the statement is on it, with no copy of
            // their values; the others are read whole first, and decoded once the connection is back in the pool.
            if request.properties == nil, entity.decodesPlainly(in: layout) {
                let source = SQLiteRowSource(entity: entity, layout: layout, store: self, loadedProperties: nil)
                try forEachRow(entity: entity, query: query) { statement in
                    try body(SQLiteRow(statement: statement, source: source))
                }
                return
            }
            let rows = try fetchRows(entity: entity, query: query, properties: request.properties)
            let loaded = rows.first?.loadedProperties
            var sources: [String: SQLiteRowSource] = [:]
            for row in rows {
                let own = ownEntity(of: row, read: entity, layout: layout)
                let source =
                    sources[own.entity.name]
                    ?? SQLiteRowSource(entity: own.entity, layout: own.layout, store: self, loadedProperties: loaded)
                sources[own.entity.name] = source
                try body(SQLiteRow(row, source: source))
            }
        }
    }

    func count(_ request: StoreReadRequest) throws -> Int {
        let query = try query(for: request)
        return try translatingEvaluationStops { try count(entity: request.entity, query: query) }
    }

    func identifiers(_ request: StoreReadRequest) throws -> [PersistentIdentifier] {
        let query = try query(for: request)
        let entity = request.entity
        let layout = try layout(of: entity)
        return try translatingEvaluationStops {
            guard let typePosition = layout.typeColumnPosition else {
                let scope = identifierScope(entityName: entity.name)
                return try fetchPrimaryKeys(entity: entity, query: query).map {
                    PersistentIdentifier(scope: scope, primaryKey: $0)
                }
            }
            // In a hierarchy's table, each identifier names the class its row is of, as the row's model does.
            var identifiers: [PersistentIdentifier] = []
            try forEachRow(entity: entity, query: query, positions: [typePosition]) { statement in
                let name = if case .text(let name) = statement.column(1) { name } else { entity.name }
                identifiers.append(
                    PersistentIdentifier(scope: identifierScope(entityName: name), primaryKey: statement.int64(0)))
            }
            return identifiers
        }
    }

    func links(
        of property: Schema.Entity.Property, owner entity: Schema.Entity, owners: [PersistentIdentifier],
        editingState: EditingState?
    ) throws -> [(owner: PersistentIdentifier, target: PersistentIdentifier)] {
        guard let info = property.relationshipInfo else { return [] }
        let ownerKeys = SQLiteKeySet(owners.compactMap(\.primaryKey))
        let sql: String
        let bindings: [SQLValue]
        switch info.storage {
        case .joinTable(let table, let ownerColumn, let targetColumn):
            let condition = ownerKeys.condition(on: quoted(ownerColumn))
            sql =
                "SELECT \(quoted(ownerColumn)), \(quoted(targetColumn)) FROM \(quoted(table)) "
                + "WHERE \(condition.sql) ORDER BY \(quoted(ownerColumn)), \(quoted(targetColumn))"
            bindings = condition.bindings
        case .foreignKey(let column):
            let condition = ownerKeys.condition(on: quoted(SQLTableLayout.primaryKey))
            sql =
                "SELECT \(quoted(SQLTableLayout.primaryKey)), \(quoted(column)) FROM \(quoted(entity.tableName)) "
                + "WHERE \(condition.sql) AND \(quoted(column)) IS NOT NULL"
            bindings = condition.bindings
        case .inverseForeignKey:
            return []
        }
        let pairs = try run(sql, entityName: entity.name) { connection in
            try connection.statement(sql).rows(bindings).compactMap { row -> (Int64, Int64)? in
                guard case .integer(let owner) = row[0], case .integer(let target) = row[1] else { return nil }
                return (owner, target)
            }
        }
        let ownerScope = identifierScope(entityName: entity.name)
        let targetScope = identifierScope(entityName: info.destination.name)
        return pairs.map {
            (
                PersistentIdentifier(scope: ownerScope, primaryKey: $0.0),
                PersistentIdentifier(scope: targetScope, primaryKey: $0.1)
            )
        }
    }

    func withReadSnapshot<Result>(_ body: () throws -> Result) throws -> Result {
        // The files lock, shared, for the whole snapshot: a save that removes a file a row of the snapshot refers
        // to waits until every read of the snapshot has read its files (see `ExternalDataStore`).
        guard let external, entities.contains(where: \.usesExternalStorage) else {
            return try readInOneTransaction(body)
        }
        return try external.withLock(exclusive: false) { try readInOneTransaction(body) }
    }

    // MARK: - Internal

    /// Runs `body` in a read transaction on a reader pinned for every read `body` makes of this store.
    private func readInOneTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try pool.withPinnedReader { connection in try connection.inReadTransaction(body) }
        } catch let error as SQLiteError {
            throw SwiftDataError(
                .loadIssueModelContainer, "reading the store \(name) failed", sql: error.sql, underlying: error)
        }
    }

    /// The layout of an entity this store holds.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` naming the entity when the store does not hold it.
    func layout(of entity: Schema.Entity) throws -> SQLTableLayout {
        guard let layout = layouts[entity.name] else {
            throw SwiftDataError(
                .loadIssueModelContainer, "the store '\(name)' holds no \(entity.name)", entityName: entity.name)
        }
        return layout
    }

    /// The SQL parts of a read request, in the store's dialect but for the key sets, which are SQLite's own.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the request's filter or order is another store's.
    func query(for request: StoreReadRequest) throws -> SQLQuery {
        let entity = request.entity
        // Made only when a condition needs them: most reads need neither.
        var table: String { dialect.quoted(entity.tableName) }
        var key: String { "\(table).\(dialect.quoted(SQLTableLayout.primaryKey))" }
        // Each condition is added as `(what there was) AND condition`, the filter first, whose parameters are
        // numbered from 1; the others' parameters are numbered after those before them.
        var whereClause: String?
        var bindings: [SQLValue] = []
        func add(_ condition: String) {
            whereClause = whereClause.map { "(\($0)) AND \(condition)" } ?? condition
        }
        func add(_ keys: SQLiteKeySet, on column: String, negated: Bool = false) {
            let condition = keys.condition(on: column, firstParameter: bindings.count + 1)
            add(negated ? "NOT (\(condition.sql))" : condition.sql)
            bindings += condition.bindings
        }
        if let filter = request.filter {
            guard let filter = filter as? SQLFilter else { throw Self.foreignPart(of: entity) }
            add(filter.sql)
            bindings += filter.bindings
        }
        // A subclass's rows share its root's table: keep the rows of the subclass and of its own subclasses.
        if entity.superentityType != nil {
            let names = entity.hierarchyNames.map(dialect.stringLiteral)
            add("\(table).\(dialect.quoted(SQLTableLayout.typeColumn)) IN (\(names.joined(separator: ", ")))")
        }
        switch request.selection {
        case .all:
            break
        case .identifiers(let identifiers):
            add(SQLiteKeySet(identifiers.compactMap(\.primaryKey)), on: key)
        case .related(let inverse, let owners):
            let layout = try layout(of: entity)
            guard let range = layout.columnRangeByProperty[inverse.index] else {
                throw SwiftDataError(
                    .loadIssueModelContainer, "\(entity.name).\(inverse.name) is not stored in its rows",
                    entityName: entity.name)
            }
            let column = layout.columns[range.lowerBound].name
            add(SQLiteKeySet(owners.compactMap(\.primaryKey)), on: dialect.quoted(column))
        }
        if let after = request.after?.primaryKey {
            add("\(key) > \(dialect.placeholder(bindings.count + 1))")
            bindings.append(.integer(after))
        }
        // Rows deleted without loading their models stay in the table until the save.
        if let excluded = request.excluded {
            let keySet: SQLiteKeySet
            if let cached = excluded.storeForm as? SQLiteKeySet {
                keySet = cached
            } else {
                keySet = SQLiteKeySet(excluded.identifiers.compactMap(\.primaryKey))
                excluded.storeForm = keySet
            }
            add(keySet, on: key, negated: true)
        }
        var query = SQLQuery(whereClause: whereClause, bindings: bindings)
        if let sortOrder = request.sortOrder {
            guard let sortOrder = sortOrder as? SQLSortOrder else { throw Self.foreignPart(of: entity) }
            query.orderBy = sortOrder.orderBy
        } else if request.ordersByIdentifier {
            query.orderBy = dialect.quoted(SQLTableLayout.primaryKey)
        }
        query.limit = request.limit
        query.offset = request.offset
        return query
    }

    /// The entity and layout a fetched row is a row of: the class its type column names, in a hierarchy's table.
    private func ownEntity(of row: FetchedRow, read entity: Schema.Entity, layout: SQLTableLayout)
        -> (entity: Schema.Entity, layout: SQLTableLayout)
    {
        guard let position = layout.typeColumnPosition, case .text(let name) = row.values[position],
            name != entity.name, let own = entities.first(where: { $0.name == name }), let ownLayout = layouts[name]
        else { return (entity, layout) }
        return (own, ownLayout)
    }

    /// Runs a read, turning SQLite's stop for an evaluation only Swift can decide (see `SQLiteFunctions`) into
    /// `StoreCannotEvaluate`.
    private func translatingEvaluationStops<Result>(_ read: () throws -> Result) throws -> Result {
        do {
            return try read()
        } catch let error as SwiftDataError where error.asksForInMemoryEvaluation {
            throw StoreCannotEvaluate(
                part: .predicate,
                reason: "a row meets a force unwrap of nil or a division by zero, which only an evaluation in memory "
                    + "can decide")
        }
    }

    private static func foreignPart(of entity: Schema.Entity) -> SwiftDataError {
        SwiftDataError(
            .loadIssueModelContainer, "a read of \(entity.name) carried another store's query", entityName: entity.name)
    }
}

extension Schema.Entity {
    /// True when a row of the entity decodes without code of the app and without reading files: no attribute has
    /// a type whose decoding the app wrote (`ValueCodec.decodesWithoutAppCode`) or keeps its value in external
    /// storage, and the table holds no other entity's rows (no type column says which class a row is).
    func decodesPlainly(in layout: SQLTableLayout) -> Bool {
        layout.typeColumnPosition == nil
            && persistedProperties.allSatisfy { property in
                property.isRelationship
                    || (!property.usesExternalStorage && (property.codec?.decodesWithoutAppCode ?? true))
            }
    }
}

extension SwiftDataError {
    /// True when SQL stopped a query so that the predicate is evaluated in memory instead (see `SQLiteFunctions`).
    var asksForInMemoryEvaluation: Bool {
        (context.underlying as? SQLiteError)?.message.contains(SQLiteFunctions.evaluateInMemory) ?? false
    }
}
