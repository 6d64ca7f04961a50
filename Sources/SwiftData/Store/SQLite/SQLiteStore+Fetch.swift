/// The parts of a `SELECT` that a fetch descriptor translates to.
struct SQLQuery {
    var whereClause: String?
    var bindings: [SQLiteValue] = []
    var orderBy: String?
    var limit: Int?
    var offset: Int?
}

/// One row of an entity's table: its primary key and its columns in `SQLiteTableLayout.columns` order.
struct FetchedRow {
    let primaryKey: Int64
    let values: [SQLiteValue]
    /// The properties whose columns were read, or nil when all were; the others hold NULL placeholders.
    var loadedProperties: Set<Int>? = nil
}

extension SQLiteStore {
    // MARK: - Fetching Rows

    /// The rows of an entity that match a query, reading only the columns of `properties` (and of every to-one
    /// relationship) when it is given.
    func fetchRows(entity: Schema.Entity, query: SQLQuery, properties: Set<Int>? = nil) throws -> [FetchedRow] {
        let layout = layouts[entity.name]!
        let positions: [Int]
        if let properties {
            positions = layout.columns.indices.filter {
                layout.columns[$0].isForeignKey || properties.contains(layout.columns[$0].propertyIndex)
            }
        } else {
            positions = Array(layout.columns.indices)
        }
        let selectList = ([quoted(SQLiteTableLayout.primaryKey)] + positions.map { quoted(layout.columns[$0].name) })
            .joined(separator: ", ")
        let sql = selectSQL("SELECT \(selectList) FROM \(quoted(layout.tableName))", query)
        let loaded = properties.map { requested in
            Set(positions.map { layout.columns[$0].propertyIndex }).union(requested)
        }
        return try run(sql, entityName: entity.name) { connection in
            let statement = try connection.statement(sql)
            try statement.bind(query.bindings)
            var rows: [FetchedRow] = []
            while try statement.step() {
                var values: [SQLiteValue]
                if properties == nil {
                    values = (0..<Int32(positions.count)).map { statement.column($0 + 1) }
                } else {
                    values = Array(repeating: .null, count: layout.columns.count)
                    for (offset, position) in positions.enumerated() {
                        values[position] = statement.column(Int32(offset + 1))
                    }
                }
                rows.append(FetchedRow(primaryKey: statement.int64(0), values: values, loadedProperties: loaded))
            }
            return try readExternalValues(of: entity, in: rows, layout: layout)
        }
    }

    /// Replaces the file references of external-storage columns with the files' contents.
    private func readExternalValues(of entity: Schema.Entity, in rows: [FetchedRow], layout: SQLiteTableLayout) throws
        -> [FetchedRow]
    {
        guard let external else { return rows }
        let positions = entity.storedProperties.filter(\.usesExternalStorage).compactMap {
            layout.columnRangeByProperty[$0.index]?.lowerBound
        }
        guard !positions.isEmpty else { return rows }
        return try rows.map { row in
            var values = row.values
            for position in positions {
                guard let name = ExternalDataStore.fileName(in: values[position]) else { continue }
                do {
                    values[position] = .blob([UInt8](try external.read(name)))
                } catch {
                    throw SwiftDataError(
                        .loadIssueModelContainer,
                        "the external file \(name) of \(entity.name) is missing",
                        entityName: entity.name,
                        underlying: error
                    )
                }
            }
            return FetchedRow(primaryKey: row.primaryKey, values: values, loadedProperties: row.loadedProperties)
        }
    }

    /// The primary keys of an entity's rows that match a query.
    func fetchPrimaryKeys(entity: Schema.Entity, query: SQLQuery) throws -> [Int64] {
        let sql = selectSQL("SELECT \(quoted(SQLiteTableLayout.primaryKey)) FROM \(quoted(entity.tableName))", query)
        return try run(sql, entityName: entity.name) { connection in
            try connection.statement(sql).rows(query.bindings).compactMap {
                if case .integer(let key) = $0[0] { return key }
                return nil
            }
        }
    }

    /// The number of an entity's rows that match a query.
    func count(entity: Schema.Entity, query: SQLQuery) throws -> Int {
        var countQuery = query
        countQuery.orderBy = nil
        let base = "SELECT count(*) FROM \(quoted(entity.tableName))"
        let sql: String
        if query.limit != nil || query.offset != nil {
            sql = "SELECT count(*) FROM (" + selectSQL("SELECT 1 FROM \(quoted(entity.tableName))", countQuery) + ")"
        } else {
            sql = selectSQL(base, countQuery)
        }
        return try run(sql, entityName: entity.name) { connection in
            guard case .integer(let count) = try connection.statement(sql).rows(query.bindings).first?.first else {
                return 0
            }
            return Int(count)
        }
    }

    // MARK: - Internal

    private func selectSQL(_ head: String, _ query: SQLQuery) -> String {
        var sql = head
        if let whereClause = query.whereClause { sql += " WHERE " + whereClause }
        if let orderBy = query.orderBy { sql += " ORDER BY " + orderBy }
        if let limit = query.limit {
            sql += " LIMIT \(limit)"
            if let offset = query.offset, offset > 0 { sql += " OFFSET \(offset)" }
        } else if let offset = query.offset, offset > 0 {
            sql += " LIMIT -1 OFFSET \(offset)"
        }
        return sql
    }

    /// Runs a read with the connection, wrapping SQLite failures in a `SwiftDataError` that names the entity.
    func run<T>(_ sql: String, entityName: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as SQLiteError {
            throw SwiftDataError(
                .loadIssueModelContainer, "reading \(entityName) failed", entityName: entityName, sql: sql,
                underlying: error)
        }
    }
}
