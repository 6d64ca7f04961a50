/// The full-text index SwiftData keeps for `.spotlight` attributes, since Linux has no Spotlight.
///
/// Each entity with `.spotlight` attributes gets an SQLite FTS5 table, `<Entity>_spotlight`, whose row id is the
/// model's primary key and whose columns are those attributes' text. Tokens are matched without regard to case or
/// diacritics. Every save keeps it up to date in the same transaction.
///
/// Related SQLite documentation: https://www.sqlite.org/fts5.html
struct SpotlightIndex {
    let entity: Schema.Entity
    let properties: [Schema.Entity.Property]

    /// The index of an entity, or nil when it has no `.spotlight` attributes.
    init?(entity: Schema.Entity) {
        let properties = entity.persistedProperties.filter {
            ($0.schemaProperty as? Schema.Attribute)?.options.contains(.spotlight) ?? false
        }
        guard !properties.isEmpty else { return nil }
        self.entity = entity
        self.properties = properties
    }

    var tableName: String { entity.tableName + "_spotlight" }

    /// The statement that creates the index table.
    var createSQL: String {
        let columns = properties.map { quoted($0.name) }.joined(separator: ", ")
        return
            "CREATE VIRTUAL TABLE \(quoted(tableName)) USING fts5(\(columns), tokenize = 'unicode61 remove_diacritics 2')"
    }

    /// The statement that fills the index from the entity's table (after creating it in a migration).
    var fillSQL: String {
        let columns = properties.map { quoted($0.name) }.joined(separator: ", ")
        return "INSERT INTO \(quoted(tableName)) (rowid, \(columns)) SELECT \(quoted(SQLTableLayout.primaryKey)), "
            + "\(columns) FROM \(quoted(entity.tableName))"
    }

    /// Writes one model's text to the index, replacing what it had.
    func write(_ storage: ModelStorage, key: Int64, connection: SQLiteConnection) throws {
        try remove(SQLiteKeySet(CollectionOfOne(key)), connection: connection)
        let columns = properties.map { quoted($0.name) }.joined(separator: ", ")
        let placeholders = (0...properties.count).map { "?\($0 + 1)" }.joined(separator: ", ")
        var values: [SQLValue] = [.integer(key)]
        for property in properties {
            let text = unwrappedValue(storage.value(at: property.index)).map { "\($0)" }
            values.append(text.map { .text($0) } ?? .null)
        }
        try connection.statement("INSERT INTO \(quoted(tableName)) (rowid, \(columns)) VALUES (\(placeholders))")
            .execute(values)
    }

    /// Removes models from the index.
    func remove(_ keys: SQLiteKeySet, connection: SQLiteConnection) throws {
        try keys.execute(connection) { "DELETE FROM \(quoted(tableName)) WHERE rowid \($0)" }
    }

    /// An FTS5 query for search text: every word must match, each as a prefix.
    static func query(for text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation })
            .map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"*" }
            .joined(separator: " ")
    }
}

extension ModelContext {
    // MARK: - Searching

    /// The saved models whose `.spotlight` attributes contain every word of the search text (each word also
    /// matching as a prefix, case and diacritics ignored), best matches first.
    ///
    /// An addition to Apple's API: on Apple platforms `.spotlight` feeds the system's Spotlight; on Linux SwiftData
    /// keeps a full-text index in the store.
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` when the model has no `.spotlight` attributes.
    public func search<T: PersistentModel>(_ type: T.Type = T.self, matching text: String, limit: Int? = nil) throws
        -> [T]
    {
        let entity = Schema.Entity.of(T.self)
        guard let index = SpotlightIndex(entity: entity) else {
            throw SwiftDataError(
                .unsupportedPredicate, "\(entity.name) has no .spotlight attributes to search", entityName: entity.name)
        }
        let query = SpotlightIndex.query(for: text)
        guard !query.isEmpty else { return [] }
        guard let store = try container.store(for: entity) as? SQLiteStore else { return [] }
        let sql =
            "SELECT rowid FROM \(quoted(index.tableName)) WHERE \(quoted(index.tableName)) MATCH ?1 ORDER BY rank"
            + (limit.map { " LIMIT \($0)" } ?? "")
        let keys = try store.run(sql, entityName: entity.name) { connection in
            try connection.statement(sql).rows([.text(query)]).compactMap { row -> Int64? in
                if case .integer(let key) = row[0] { return key }
                return nil
            }
        }
        let scope = store.identifierScope(entityName: entity.name)
        let identifiers = keys.map { PersistentIdentifier(scope: scope, primaryKey: $0) }
        return try models(of: entity, identifiers: identifiers).compactMap { $0 as? T }
    }
}
