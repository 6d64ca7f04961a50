internal import SwiftData

extension PostgreSQLModelStore: SQLTranslatingStore {
    var sqlDialect: any SQLDialect { dialect }
}

extension PostgreSQLModelStore: ModelStore {
    var name: String { configuration.name }
    var allowsSave: Bool { configuration.allowsSave }
    var writesInTransaction: Bool { true }
    /// Each read is a round trip to the server, which costs more than reading the models of a larger batch.
    var lazyLoadBatchSize: Int { 1000 }

    func identifierScope(entityName: String) -> IdentifierScope {
        identifierScopes[entityName]
    }

    // MARK: - Reading

    /// Reads every row first (or, with a cursor, the cursor's next page), then hands them to `body` once the
    /// connection is back in the pool (or, with a cursor, idle until the next page).
    func readRows(_ request: StoreReadRequest, _ body: (PostgreSQLRow) throws -> Void) throws {
        let entity = request.entity
        let layout = try layout(of: entity)
        let query = try query(for: request)
        let selection = PostgreSQLColumnSelection(layout: layout, properties: request.properties)
        let (sql, bindings) = query.select(
            selection.selectList(of: layout, dialect: dialect), from: dialect.quoted(layout.tableName),
            dialect: dialect)
        let filtered = request.filter != nil
        let result: PostgreSQLResult
        if let cursor = request.cursor {
            guard let page = try nextPage(of: cursor, sql, bindings, entity: entity, filtered: filtered) else {
                return
            }
            result = page
        } else {
            result = try run(sql, bindings, entity: entity, filtered: filtered)
        }
        let width = layout.columns.count
        // Every row's values in one array, each row a slice of it: one allocation per read, not one per row. A
        // column the read left out holds NULL, so every row keeps the layout's positions.
        var all: [SQLValue] = []
        all.reserveCapacity(result.rowCount * width)
        if let positions = selection.positions {
            let row = Array(repeating: SQLValue.null, count: width)
            for index in 0..<result.rowCount {
                let start = all.count
                all += row
                for (offset, position) in positions.enumerated() {
                    all[start + position] = result.value(row: index, column: offset + 1)
                }
            }
        } else {
            for index in 0..<result.rowCount {
                for column in 0..<width { all.append(result.value(row: index, column: column + 1)) }
            }
        }
        let loaded = selection.loadedProperties
        let readSource = PostgreSQLRowSource(entity: entity, layout: layout, store: self, loadedProperties: loaded)
        var sources: [String: PostgreSQLRowSource] = [:]
        let typePosition = layout.typeColumnPosition
        for index in 0..<result.rowCount {
            let row = all[(index * width)..<((index + 1) * width)]
            var source = readSource
            // In a hierarchy's table, a row of a subclass is read as its own class.
            if let typePosition, case .text(let name) = row[row.startIndex + typePosition], name != entity.name,
                let member = entities.first(where: { $0.name == name })
            {
                if let known = sources[name] {
                    source = known
                } else {
                    source = PostgreSQLRowSource(
                        entity: member, layout: try self.layout(of: member), store: self, loadedProperties: loaded)
                    sources[name] = source
                }
            }
            let key = result.integer(row: index, column: 0) ?? 0
            try body(PostgreSQLRow(primaryKey: key, source: source, columns: row))
        }
    }

    func count(_ request: StoreReadRequest) throws -> Int {
        var query = try query(for: request)
        query.orderBy = nil
        let table = dialect.quoted(request.entity.tableName)
        let (sql, bindings): (String, [SQLValue])
        if query.limit != nil || query.offset != nil {
            let rows = query.select("1", from: table, dialect: dialect)
            (sql, bindings) = ("SELECT count(*) FROM (\(rows.sql)) AS \"rows\"", rows.bindings)
        } else {
            (sql, bindings) = query.select("count(*)", from: table, dialect: dialect)
        }
        let result = try run(sql, bindings, entity: request.entity, filtered: request.filter != nil)
        return Int(result.integer(row: 0, column: 0) ?? 0)
    }

    func identifiers(_ request: StoreReadRequest) throws -> [PersistentIdentifier] {
        let entity = request.entity
        let layout = try layout(of: entity)
        let query = try query(for: request)
        let typed = layout.typeColumnPosition != nil
        let columns =
            dialect.quoted(SQLTableLayout.primaryKey) + (typed ? ", " + dialect.quoted(SQLTableLayout.typeColumn) : "")
        let (sql, bindings) = query.select(columns, from: dialect.quoted(layout.tableName), dialect: dialect)
        let result = try run(sql, bindings, entity: entity, filtered: request.filter != nil)
        let scope = identifierScope(entityName: entity.name)
        return (0..<result.rowCount).map { row in
            let key = result.integer(row: row, column: 0) ?? 0
            // In a hierarchy's table, each identifier names the class its row is of, as the row's model does.
            guard typed, let name = result.text(row: row, column: 1), name != entity.name else {
                return PersistentIdentifier(scope: scope, primaryKey: key)
            }
            return PersistentIdentifier(scope: identifierScope(entityName: name), primaryKey: key)
        }
    }

    func links(
        of property: Schema.Entity.Property, owner entity: Schema.Entity, owners: [PersistentIdentifier],
        editingState: EditingState?
    ) throws -> [(owner: PersistentIdentifier, target: PersistentIdentifier)] {
        guard let info = property.relationshipInfo else { return [] }
        let keys = PostgreSQLKeyList(owners.compactMap(\.primaryKey))
        let sql: String
        switch info.storage {
        case .joinTable(let table, let ownerColumn, let targetColumn):
            sql =
                "SELECT \(dialect.quoted(ownerColumn)), \(dialect.quoted(targetColumn)) FROM \(dialect.quoted(table)) "
                + "WHERE \(keys.condition(on: dialect.quoted(ownerColumn), parameter: 1)) "
                + "ORDER BY \(dialect.quoted(ownerColumn)), \(dialect.quoted(targetColumn))"
        case .foreignKey(let column):
            sql =
                "SELECT \(dialect.quoted(SQLTableLayout.primaryKey)), \(dialect.quoted(column)) FROM "
                + "\(dialect.quoted(entity.tableName)) WHERE "
                + "\(keys.condition(on: dialect.quoted(SQLTableLayout.primaryKey), parameter: 1)) "
                + "AND \(dialect.quoted(column)) IS NOT NULL"
        case .inverseForeignKey:
            return []
        }
        let result = try run(sql, [keys.parameter], entity: entity, filtered: false)
        let ownerScope = identifierScope(entityName: entity.name)
        let targetScope = identifierScope(entityName: info.destination.name)
        return (0..<result.rowCount).compactMap { row in
            guard let owner = result.integer(row: row, column: 0), let target = result.integer(row: row, column: 1)
            else { return nil }
            return (
                PersistentIdentifier(scope: ownerScope, primaryKey: owner),
                PersistentIdentifier(scope: targetScope, primaryKey: target)
            )
        }
    }

    // MARK: - Internal

    /// Runs a read. A predicate whose SQL the server cannot type (a comparison of two bound values, whose types
    /// only Swift knows) is evaluated in memory instead.
    private func run(_ sql: String, _ bindings: [SQLValue], entity: Schema.Entity, filtered: Bool) throws
        -> PostgreSQLResult
    {
        do {
            return try pool.withConnection { try $0.executeRead(sql, bindings) }
        } catch let error as PostgreSQLError {
            throw readFailure(error, sql: sql, entity: entity, filtered: filtered)
        }
    }

    /// What a read that failed throws: `StoreCannotEvaluate` for a predicate whose SQL the server cannot type, so
    /// that it is evaluated in memory; otherwise `SwiftDataError.loadIssueModelContainer` naming the entity.
    func readFailure(_ error: PostgreSQLError, sql: String, entity: Schema.Entity, filtered: Bool) -> any Error {
        if filtered, case .statementFailed(let state) = error.kind, Self.typingFailures.contains(state) {
            return StoreCannotEvaluate(
                part: .predicate, reason: "PostgreSQL cannot type the predicate's SQL (\(error.message))")
        }
        return SwiftDataError(
            .loadIssueModelContainer, "reading \(entity.name) from the PostgreSQL store '\(name)' failed",
            entityName: entity.name, sql: sql, underlying: error)
    }

    /// SQLSTATEs of SQL the server could not type: an indeterminate, mismatched or ambiguous type, or no operator
    /// or function for the types.
    private static let typingFailures: Set<String> = ["42P18", "42804", "42883", "42725", "22P02"]

    /// The SQL parts of a read request.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the request's filter or order is another store's.
    func query(for request: StoreReadRequest) throws -> PostgreSQLQuery {
        let entity = request.entity
        let table = dialect.quoted(entity.tableName)
        let key = "\(table).\(dialect.quoted(SQLTableLayout.primaryKey))"
        var query = PostgreSQLQuery()
        if let filter = request.filter {
            guard let filter = filter as? SQLFilter else { throw Self.foreignPart(of: entity) }
            query.add(filter.sql)
            query.bindings += filter.bindings
        }
        if entity.superentityType != nil {
            let names = entity.hierarchyNames.map(dialect.stringLiteral)
            query.add("\(table).\(dialect.quoted(SQLTableLayout.typeColumn)) IN (\(names.joined(separator: ", ")))")
        }
        switch request.selection {
        case .all:
            break
        case .identifiers(let identifiers):
            query.add(PostgreSQLKeyList(identifiers.compactMap(\.primaryKey)), on: key)
        case .related(let inverse, let owners):
            let layout = try layout(of: entity)
            guard let range = layout.columnRangeByProperty[inverse.index] else {
                throw SwiftDataError(
                    .loadIssueModelContainer, "\(entity.name).\(inverse.name) is not stored in its rows",
                    entityName: entity.name)
            }
            query.add(
                PostgreSQLKeyList(owners.compactMap(\.primaryKey)),
                on: "\(table).\(dialect.quoted(layout.columns[range.lowerBound].name))")
        }
        if let after = request.after?.primaryKey {
            query.bindings.append(.integer(after))
            query.add("\(key) > $\(query.bindings.count)")
        }
        if let excluded = request.excluded, !excluded.identifiers.isEmpty {
            query.add(PostgreSQLKeyList(excluded.identifiers.compactMap(\.primaryKey)), on: key, negated: true)
        }
        if let sortOrder = request.sortOrder {
            guard let sortOrder = sortOrder as? SQLSortOrder else { throw Self.foreignPart(of: entity) }
            query.orderBy = sortOrder.orderBy
        } else if request.ordersByIdentifier {
            query.orderBy = key
        }
        query.limit = request.limit
        query.offset = request.offset
        return query
    }

    private static func foreignPart(of entity: Schema.Entity) -> SwiftDataError {
        SwiftDataError(
            .loadIssueModelContainer, "a read of \(entity.name) carried another store's query", entityName: entity.name)
    }
}

/// The parts of a `SELECT` a read request translates to.
struct PostgreSQLQuery {
    var whereClause: String?
    var bindings: [SQLValue] = []
    var orderBy: String?
    var limit: Int?
    var offset: Int?

    /// Adds a condition, joined to those before it by `AND`.
    mutating func add(_ condition: String) {
        whereClause = whereClause.map { "(\($0)) AND \(condition)" } ?? condition
    }

    /// Adds the condition that a column holds one of some keys (or none of them), bound as one array parameter.
    mutating func add(_ keys: PostgreSQLKeyList, on column: String, negated: Bool = false) {
        bindings.append(keys.parameter)
        let condition = keys.condition(on: column, parameter: bindings.count)
        add(negated ? "NOT (\(condition))" : condition)
    }

    /// `SELECT columns FROM table` with the query's conditions, order and limits, and the values of its
    /// parameters: the bindings, then the limit and offset.
    func select(_ columns: String, from table: String, dialect: PostgreSQLDialect) -> (
        sql: String, bindings: [SQLValue]
    ) {
        var sql = "SELECT \(columns) FROM \(table)"
        if let whereClause { sql += " WHERE " + whereClause }
        if let orderBy { sql += " ORDER BY " + orderBy }
        var parameters = bindings
        return (sql + dialect.limitClause(limit: limit, offset: offset, parameters: &parameters), parameters)
    }
}

/// Keys bound as one `bigint[]` parameter, so that a list of any length is one statement with one parameter.
struct PostgreSQLKeyList {
    let keys: [Int64]

    init(_ keys: [Int64]) {
        self.keys = keys
    }

    /// The array's text form, `{1,2,3}`.
    var parameter: SQLValue {
        .text("{" + keys.map(String.init).joined(separator: ",") + "}")
    }

    /// The condition that `column` is one of the keys bound at `parameter`.
    func condition(on column: String, parameter: Int) -> String {
        "\(column) = ANY($\(parameter)::bigint[])"
    }
}
