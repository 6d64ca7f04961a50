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
}

extension SQLiteStore {
    // MARK: - Fetching Rows

    /// The rows of an entity that match a query.
    func fetchRows(entity: Schema.Entity, query: SQLQuery) throws -> [FetchedRow] {
        let layout = layouts[entity.name]!
        let sql = selectSQL("SELECT \(layout.selectList) FROM \(quoted(layout.tableName))", query)
        return try run(sql, entityName: entity.name) { connection in
            let statement = try connection.statement(sql)
            try statement.bind(query.bindings)
            let columnCount = Int32(layout.columns.count)
            var rows: [FetchedRow] = []
            while try statement.step() {
                let values = (0..<columnCount).map { statement.column($0 + 1) }
                rows.append(FetchedRow(primaryKey: statement.int64(0), values: values))
            }
            return rows
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
            return try withConnection(body)
        } catch let error as SQLiteError {
            throw SwiftDataError(
                .loadIssueModelContainer, "reading \(entityName) failed", entityName: entityName, sql: sql,
                underlying: error)
        }
    }
}
