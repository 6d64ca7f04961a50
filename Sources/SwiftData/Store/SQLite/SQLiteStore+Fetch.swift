/// The parts of a `SELECT` that a fetch descriptor translates to.
struct SQLQuery {
    var whereClause: String?
    var bindings: [SQLValue] = []
    var orderBy: String?
    var limit: Int?
    var offset: Int?
}

/// One row of an entity's table: its primary key and its columns in `SQLTableLayout.columns` order.
struct FetchedRow {
    let primaryKey: Int64
    let values: RowValues
    /// The properties whose columns were read, or nil when all were; the others read NULL.
    var loadedProperties: Set<Int>? = nil
}

/// The column values of one fetched row: a window on an array that holds many rows of the fetch, so a fetch
/// allocates an array per chunk of rows rather than one per row.
///
/// A row read for some properties only holds the columns it read, in layout order, and finds each column of the
/// layout among them through `indexByColumn`, which every row of the read shares: a read of one column of a wide
/// table holds one value per row, not one per column.
struct RowValues {
    private let all: [SQLValue]
    private let start: Int
    /// The number of values the row holds: one per column it read.
    let count: Int
    /// The index among the row's values of each column of the layout, by position, or -1 for a column the read
    /// left out (which reads NULL); nil when the row holds every column, in layout order.
    private let indexByColumn: [Int]?

    /// The values of a row read on its own.
    init(_ values: [SQLValue], indexByColumn: [Int]? = nil) {
        self.init(all: values, start: 0, count: values.count, indexByColumn: indexByColumn)
    }

    /// The `count` values from `start` on of an array holding several rows.
    init(all: [SQLValue], start: Int, count: Int, indexByColumn: [Int]? = nil) {
        self.all = all
        self.start = start
        self.count = count
        self.indexByColumn = indexByColumn
    }

    /// The value at a column position of the layout.
    subscript(position: Int) -> SQLValue {
        guard let index = index(ofColumn: position) else { return .null }
        return all[start + index]
    }

    /// The index among the row's values of the column at a position of the layout, or nil when the read left it
    /// out.
    func index(ofColumn position: Int) -> Int? {
        guard let indexByColumn else { return position }
        let index = indexByColumn[position]
        return index < 0 ? nil : index
    }

    /// The row's values, one per column it read.
    var stored: [SQLValue] { Array(all[start..<(start + count)]) }

    /// The row holding other values of the same columns, one per column it read, in the same order.
    func replacingStored(with values: [SQLValue]) -> RowValues {
        RowValues(values, indexByColumn: indexByColumn)
    }
}

extension SQLiteStore {
    // MARK: - Fetching Rows

    /// The rows of an entity that match a query, reading only the columns of `properties` (and of every to-one
    /// relationship) when it is given.
    func fetchRows(entity: Schema.Entity, query: SQLQuery, properties: Set<Int>? = nil) throws -> [FetchedRow] {
        let layout = layouts[entity.name]!
        guard let external, entity.usesExternalStorage else {
            return try fetchStoredRows(entity: entity, query: query, properties: properties, layout: layout)
        }
        // The files lock, shared, from reading the rows until their files are read: a save that replaces or
        // deletes one of those files waits for it before removing the file (see `ExternalDataStore`).
        return try external.withLock(exclusive: false) {
            let rows = try fetchStoredRows(entity: entity, query: query, properties: properties, layout: layout)
            return try readExternalValues(of: entity, in: rows, layout: layout)
        }
    }

    /// The rows of an entity that match a query, with external-storage columns holding their file references.
    private func fetchStoredRows(
        entity: Schema.Entity, query: SQLQuery, properties: Set<Int>?, layout: SQLTableLayout
    ) throws -> [FetchedRow] {
        let positions: [Int]
        if let properties {
            // The class column too: it says which class of a hierarchy each row is a model of.
            positions = layout.columns.indices.filter {
                layout.columns[$0].isForeignKey || layout.columns[$0].propertyIndex == SQLTableLayout.typeIndex
                    || properties.contains(layout.columns[$0].propertyIndex)
            }
        } else {
            positions = Array(layout.columns.indices)
        }
        let loaded = properties.map { requested in
            Set(positions.map { layout.columns[$0].propertyIndex }).union(requested)
        }
        // A row holds the columns it read alone: a row read for one property of a wide table, as a batched fetch
        // reads the values it keeps, takes one value, not one per column.
        let indexByColumn: [Int]? =
            properties == nil
            ? nil
            : positions.enumerated().reduce(into: Array(repeating: -1, count: layout.columns.count)) {
                $0[$1.element] = $1.offset
            }
        // Rows' values go into shared arrays, `width` values per row in `layout.columns` order, a chunk of rows per
        // array: one array for the whole fetch was copied each time it grew, a tenth of reading 100,000 rows.
        // Chunks start small, so a short fetch allocates little.
        let width = positions.count
        var rows: [FetchedRow] = []
        var chunk: [SQLValue] = []
        var chunkKeys: [Int64] = []
        var chunkRows = 64
        chunk.reserveCapacity(chunkRows * width)
        func takeChunk() {
            for (row, key) in chunkKeys.enumerated() {
                rows.append(
                    FetchedRow(
                        primaryKey: key,
                        values: RowValues(all: chunk, start: row * width, count: width, indexByColumn: indexByColumn),
                        loadedProperties: loaded))
            }
            chunkKeys.removeAll(keepingCapacity: true)
            chunkRows = min(chunkRows * 2, 4096)
            chunk = []
            chunk.reserveCapacity(chunkRows * width)
        }
        try forEachRow(entity: entity, query: query, positions: positions) { statement in
            chunkKeys.append(statement.int64(0))
            for offset in 0..<width { chunk.append(statement.column(Int32(offset + 1))) }
            if chunkKeys.count == chunkRows { takeChunk() }
        }
        if !chunkKeys.isEmpty { takeChunk() }
        return rows
    }

    /// Reads the columns at `positions` of an entity's layout (every column by default) of the rows that match a
    /// query, handing each row to `body` while the statement is on it, with no copy of its values.
    ///
    /// `body` runs while the store's connection is checked out, so it must not use the store: it must not run code
    /// of the app, which could. External-storage columns hold their file references.
    func forEachRow(
        entity: Schema.Entity, query: SQLQuery, positions: [Int]? = nil, _ body: (SQLiteStatement) throws -> Void
    ) throws {
        let layout = layouts[entity.name]!
        let selectList =
            ([quoted(SQLTableLayout.primaryKey)]
            + (positions ?? Array(layout.columns.indices)).map { quoted(layout.columns[$0].name) })
            .joined(separator: ", ")
        let (sql, bindings) = selectSQL("SELECT \(selectList) FROM \(quoted(layout.tableName))", query)
        try run(sql, entityName: entity.name) { connection in
            let statement = try connection.statement(sql)
            try statement.bind(bindings)
            // A statement left on a row, when `body` throws, would keep the connection's read transaction open.
            defer { statement.reset() }
            while try statement.step() { try body(statement) }
        }
    }

    /// Replaces the file references of external-storage columns with the files' contents. The caller holds the
    /// files lock.
    private func readExternalValues(of entity: Schema.Entity, in rows: [FetchedRow], layout: SQLTableLayout) throws
        -> [FetchedRow]
    {
        guard let external else { return rows }
        let positions = entity.persistedProperties.filter(\.usesExternalStorage).compactMap {
            layout.columnRangeByProperty[$0.index]?.lowerBound
        }
        guard !positions.isEmpty else { return rows }
        return try rows.map { row in
            var values = row.values.stored
            for position in positions {
                guard let index = row.values.index(ofColumn: position),
                    let name = ExternalDataStore.fileName(in: values[index])
                else { continue }
                do {
                    values[index] = .blob([UInt8](try external.read(name)))
                } catch {
                    throw SwiftDataError(
                        .loadIssueModelContainer,
                        "the external file \(name) of \(entity.name) is missing",
                        entityName: entity.name,
                        underlying: error
                    )
                }
            }
            return FetchedRow(
                primaryKey: row.primaryKey, values: row.values.replacingStored(with: values),
                loadedProperties: row.loadedProperties)
        }
    }

    /// The primary keys of an entity's rows that match a query.
    func fetchPrimaryKeys(entity: Schema.Entity, query: SQLQuery) throws -> [Int64] {
        let (sql, bindings) = selectSQL(
            "SELECT \(quoted(SQLTableLayout.primaryKey)) FROM \(quoted(entity.tableName))", query)
        return try run(sql, entityName: entity.name) { connection in
            let statement = try connection.statement(sql)
            try statement.bind(bindings)
            defer { statement.reset() }
            var keys: [Int64] = []
            while try statement.step() { keys.append(statement.int64(0)) }
            return keys
        }
    }

    /// The number of an entity's rows that match a query.
    func count(entity: Schema.Entity, query: SQLQuery) throws -> Int {
        var countQuery = query
        countQuery.orderBy = nil
        let base = "SELECT count(*) FROM \(quoted(entity.tableName))"
        var (sql, bindings) = selectSQL(base, countQuery)
        if query.limit != nil || query.offset != nil {
            let rows = selectSQL("SELECT 1 FROM \(quoted(entity.tableName))", countQuery)
            (sql, bindings) = ("SELECT count(*) FROM (" + rows.sql + ")", rows.bindings)
        }
        return try run(sql, entityName: entity.name) { connection in
            guard case .integer(let count) = try connection.statement(sql).rows(bindings).first?.first else {
                return 0
            }
            return Int(count)
        }
    }

    // MARK: - Internal

    /// The `SELECT` with the query's conditions, order and limits, and the values of its parameters: the query's
    /// bindings, then the limit and offset.
    private func selectSQL(_ head: String, _ query: SQLQuery) -> (sql: String, bindings: [SQLValue]) {
        var sql = head
        if let whereClause = query.whereClause { sql += " WHERE " + whereClause }
        if let orderBy = query.orderBy { sql += " ORDER BY " + orderBy }
        var bindings = query.bindings
        sql += dialect.limitClause(limit: query.limit, offset: query.offset, parameters: &bindings)
        return (sql, bindings)
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
