internal import CSQLite

/// The SQLite store behind one `ModelConfiguration`: its file (or an in-memory database), its tables and the
/// statements that fetch and save models.
///
/// Every save of every context goes through the pool's one writer, as one `BEGIN IMMEDIATE` transaction; fetches
/// use the pool's readers.
final class SQLiteStore: Sendable {
    let identifier: String
    /// The scope of every identifier the store makes of an entity's rows, one per entity for the store's lifetime.
    let identifierScopes: IdentifierScopes
    let configuration: ModelConfiguration
    let entities: [Schema.Entity]
    let layouts: [String: SQLTableLayout]
    let pool: SQLiteConnectionPool
    /// Where large `.externalStorage` values live; nil for a store in memory.
    let external: ExternalDataStore?
    /// True for the store a custom migration stage's contexts use, whose new required columns may still be empty.
    let isMigrationStore: Bool
    /// The tokens of the history transactions this store object saved, for its remote-change watch.
    let ownTransactions = OwnTransactionNotes()
    /// The newest history token when the store opened, read with the connection the opening used.
    let historyTokenAtOpen: Int64
    /// The file a committed save's history transaction is signalled in, or nil for a store in memory or a
    /// migration's (see `SQLiteHistory.signalURL(of:)`).
    let commitSignal: URL?
    /// True when a save can give each inserted model its key as it writes the model's row: no row refers to
    /// another (no relationships), and no key depends on a uniqueness constraint before the row is written (an
    /// entity without one, or one whose inserts the upsert statement writes, which finds a taken-over row's key as
    /// it writes; see `writesInsertsWithUpsert(_:)`). Otherwise every key is given before the first row is written
    /// (see `SQLiteSaveWriter.write(_:)`). Keys are the same either way: each table gives its keys to its models in
    /// the order the save lists them.
    var givesKeysAsRowsAreWritten: Bool {
        entities.allSatisfy { entity in
            !entity.hasRelationships && (entity.uniquenessConstraints.isEmpty || writesInsertsWithUpsert(entity))
        }
    }

    /// The SQL the store's queries and the predicate and sort translators write.
    var dialect: SQLiteDialect { SQLiteDialect() }

    /// The name of the table that records the store's identity and schema.
    static let metadataTable = "_swiftdata_metadata"

    init(
        configuration: ModelConfiguration,
        entities: [Schema.Entity],
        version: Schema.Version,
        migrationPlan: (any SchemaMigrationPlan.Type)? = nil
    ) throws {
        self.configuration = configuration
        self.entities = entities
        self.isMigrationStore = false
        self.commitSignal =
            configuration.isStoredInMemoryOnly || !configuration.allowsSave
            ? nil : SQLiteHistory.signalURL(of: configuration.url)
        let layouts = try Self.layouts(of: entities)
        self.layouts = layouts

        let path: String
        external = configuration.isStoredInMemoryOnly ? nil : ExternalDataStore(storeURL: configuration.url)
        if configuration.isStoredInMemoryOnly {
            path = ":memory:"
        } else {
            let url = configuration.url
            try Self.checkIsSQLiteFile(url)
            if configuration.allowsSave {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } else if !FileManager.default.fileExists(atPath: url.path) {
                throw SwiftDataError(.loadIssueModelContainer, "read-only store \(url.path) does not exist")
            }
            path = url.path
        }
        do {
            pool = try SQLiteConnectionPool(path: path, readOnly: !configuration.allowsSave)
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "cannot open store at \(path)", underlying: error)
        }

        let expectedSchema = Self.schemaDescription(entities: entities, layouts: layouts)
        let existing: [String: String]
        do {
            existing = try Self.readMetadata(pool.writer, path: path)
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "\(path) is not a SwiftData store", underlying: error)
        }

        if let storedSchema = existing["schema"] {
            let identifier = existing["storeIdentifier"] ?? UUID().uuidString
            self.identifier = identifier
            identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: entities)
            if storedSchema != expectedSchema {
                guard configuration.allowsSave, let model = existing["model"].flatMap({ try? StoredSchema.decoded($0) })
                else {
                    try Self.checkSchema(stored: storedSchema, expected: expectedSchema, path: path)
                    historyTokenAtOpen = (try? SQLiteHistory.newestToken(pool.writer)) ?? 0
                    return
                }
                var stored = model
                stored.version = existing["schemaVersion"] ?? model.version
                try Migrator(
                    connection: pool.writer,
                    stored: stored,
                    target: StoredSchema(entities: entities, layouts: layouts, version: version),
                    entities: entities,
                    layouts: layouts,
                    plan: migrationPlan,
                    configuration: configuration,
                    storeIdentifier: identifier,
                    path: path
                ).migrate(version: version, schemaText: expectedSchema)
            }
        } else {
            guard configuration.allowsSave else {
                throw SwiftDataError(.loadIssueModelContainer, "read-only store \(path) has no SwiftData tables")
            }
            identifier = try Self.createTables(
                pool.writer,
                entities: entities,
                layouts: layouts,
                schema: expectedSchema,
                version: version,
                path: path
            )
            identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: entities)
        }
        // A store opened read-only, or made before history, may lack the table; a read-only one keeps lacking it.
        if configuration.allowsSave, try !SQLiteHistory.exists(pool.writer) { try SQLiteHistory.prepare(pool.writer) }
        historyTokenAtOpen = (try? SQLiteHistory.newestToken(pool.writer)) ?? 0
        if configuration.allowsSave && !configuration.isStoredInMemoryOnly {
            try pool.writer.execute("PRAGMA journal_mode = WAL")
            removeOrphanedExternalFiles()
        }
    }

    /// Removes external-storage files that no row refers to: left by a crash after a save wrote them and before
    /// it committed, or after it committed and before it removed the files it replaced.
    ///
    /// It holds SQLite's write lock throughout (`BEGIN IMMEDIATE`), since saves write their files only while they
    /// hold it: a file of another process's save that has not committed yet cannot be taken for an orphan. It
    /// holds the files lock too, so that no read is between reading a row and its file.
    ///
    /// Orphans are harmless, so the sweep is best-effort: it is skipped, and the store opens, when another
    /// connection holds the write lock or a read holds the files lock.
    private func removeOrphanedExternalFiles() {
        // Without the directory there is nothing to remove, and no need to wait for the write lock.
        guard let external, FileManager.default.fileExists(atPath: external.directory.path) else { return }
        pool.write { connection in
            connection.withoutWaitingForLocks {
                try? connection.inTransaction {
                    let referenced = try referencedExternalFiles(connection)
                    _ = external.withLock(exclusive: true, waits: false) {
                        external.removeOrphans(referenced: referenced)
                    }
                }
            }
        }
    }

    /// The names of the external files the rows refer to, in any column: a property that no longer declares
    /// `.externalStorage` (changed in the code without a migration) still refers to its files, which must stay.
    private func referencedExternalFiles(_ connection: SQLiteConnection) throws -> Set<String> {
        var referenced: Set<String> = []
        let prefix = "'" + ExternalDataStore.prefix + "'"
        // One layout per table: a hierarchy's root's, which holds every column of its table.
        for table in Set(layouts.values.map(\.tableName)) {
            guard let layout = layouts[table] else { continue }
            for column in layout.columns where column.sqlType != "INTEGER" && column.sqlType != "REAL" {
                let name = quoted(column.name)
                let sql =
                    "SELECT \(name) FROM \(quoted(layout.tableName)) WHERE typeof(\(name)) = 'text' "
                    + "AND substr(\(name), 1, length(\(prefix))) = \(prefix)"
                for row in try connection.statement(sql).rows() {
                    if let file = ExternalDataStore.fileName(in: row[0]) { referenced.insert(file) }
                }
            }
        }
        return referenced
    }

    /// A store over a migration's connection, whose tables exist already, for the contexts a custom stage runs.
    init(
        migratingWith connection: SQLiteConnection,
        entities: [Schema.Entity],
        layouts: [String: SQLTableLayout],
        identifier: String,
        configuration: ModelConfiguration
    ) {
        self.configuration = configuration
        self.entities = entities
        self.layouts = layouts
        self.identifier = identifier
        self.identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: entities)
        self.pool = SQLiteConnectionPool(sharing: connection)
        self.isMigrationStore = true
        self.historyTokenAtOpen = 0
        self.commitSignal = nil
        self.external = configuration.isStoredInMemoryOnly ? nil : ExternalDataStore(storeURL: configuration.url)
    }

    /// The table layouts of a store's entities; the entities of an inheritance hierarchy share one table.
    static func layouts(of entities: [Schema.Entity]) throws -> [String: SQLTableLayout] {
        var layouts: [String: SQLTableLayout] = [:]
        for entity in entities {
            let hierarchy = entities.filter { $0 !== entity && $0.tableName == entity.tableName }
            layouts[entity.name] = try SQLTableLayout(entity: entity, hierarchy: hierarchy, dialect: SQLiteDialect())
        }
        return layouts
    }

    // MARK: - Opening

    /// Refuses a file that exists, is not empty and does not start with SQLite's header, without writing to it.
    static func checkIsSQLiteFile(_ url: URL) throws {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty else { return }
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw SwiftDataError(.loadIssueModelContainer, "\(url.path) is not a SQLite database")
        }
    }

    /// The store's metadata; empty for a new, empty database. Throws for a database of another program.
    static func readMetadata(_ connection: SQLiteConnection, path: String) throws -> [String: String] {
        let tables = try connection.statement("SELECT name FROM sqlite_schema WHERE type = 'table'").rows()
            .compactMap { row -> String? in
                if case .text(let name) = row[0] { return name }
                return nil
            }
        guard tables.contains(metadataTable) else {
            if tables.isEmpty { return [:] }
            throw SwiftDataError(
                .loadIssueModelContainer,
                "\(path) is a SQLite database of another program (tables: \(tables.sorted().joined(separator: ", ")))"
            )
        }
        var metadata: [String: String] = [:]
        for row in try connection.statement("SELECT key, value FROM \(quoted(metadataTable))").rows() {
            if case .text(let key) = row[0], case .text(let value) = row[1] { metadata[key] = value }
        }
        return metadata
    }

    private static func checkSchema(stored: String, expected: String, path: String) throws {
        guard stored != expected else { return }
        let storedLines = Set(stored.split(separator: "\n").map(String.init))
        let expectedLines = Set(expected.split(separator: "\n").map(String.init))
        let onlyStored = storedLines.subtracting(expectedLines).sorted()
        let onlyExpected = expectedLines.subtracting(storedLines).sorted()
        throw SwiftDataError(
            .loadIssueModelContainer,
            "the store at \(path) has a different schema and no migration was given; "
                + "only in the store: [\(onlyStored.joined(separator: "; "))], "
                + "only in the code: [\(onlyExpected.joined(separator: "; "))]"
        )
    }

    /// One line per table: its name and columns, in a canonical order.
    static func schemaDescription(entities: [Schema.Entity], layouts: [String: SQLTableLayout]) -> String {
        var lines: [String] = []
        for entity in entities where entity.tableName == entity.name {
            guard let layout = layouts[entity.name] else { continue }
            let columns = layout.columns.map { "\($0.name) \($0.sqlType)\($0.isNullable ? "" : " NOT NULL")" }
            let unique = entity.uniquenessConstraints.map {
                "unique(\(layout.recordedNames(of: $0, in: entity).joined(separator: ",")))"
            }
            let indices =
                entity.indices.map { "index(\(layout.recordedNames(of: $0, in: entity).joined(separator: ",")))" }
                + (SpotlightIndex(entity: entity).map {
                    ["spotlight(\($0.properties.map(\.name).joined(separator: ",")))"]
                } ?? [])
            lines.append("\(layout.tableName)(\((columns + unique + indices).joined(separator: ", ")))")
            for table in SQLTableLayout.joinTables(of: entity) { lines.append("\(table)(owner, target)") }
        }
        return Array(Set(lines)).sorted().joined(separator: "\n")
    }

    /// Creates the tables of a new store and returns its identifier. Another process may be creating the same
    /// store at the same moment; the check is repeated inside the write transaction, and the first one wins.
    private static func createTables(
        _ connection: SQLiteConnection,
        entities: [Schema.Entity],
        layouts: [String: SQLTableLayout],
        schema: String,
        version: Schema.Version,
        path: String
    ) throws -> String {
        try connection.inTransaction {
            let existing = try readMetadata(connection, path: path)
            if let storedSchema = existing["schema"], let identifier = existing["storeIdentifier"] {
                try checkSchema(stored: storedSchema, expected: schema, path: path)
                return identifier
            }
            let identifier = UUID().uuidString
            try connection.execute(
                "CREATE TABLE \(quoted(metadataTable)) (\"key\" TEXT PRIMARY KEY, \"value\" TEXT NOT NULL)"
            )
            for entity in entities {
                // A hierarchy's table is created with its root, and holds every member's columns.
                if entity.tableName == entity.name {
                    for statement in layouts[entity.name]!.createStatements(entity: entity) {
                        try connection.execute(statement)
                    }
                }
                for table in SQLTableLayout.joinTables(of: entity) {
                    try connection.execute(
                        "CREATE TABLE \(quoted(table)) (\"owner\" INTEGER NOT NULL, \"target\" INTEGER NOT NULL, "
                            + "PRIMARY KEY (\"owner\", \"target\")) WITHOUT ROWID"
                    )
                    try connection.execute(
                        "CREATE INDEX \(quoted(table + "_target_index")) ON \(quoted(table)) (\"target\")"
                    )
                }
            }
            let insert = try connection.statement("INSERT INTO \(quoted(metadataTable)) (key, value) VALUES (?, ?)")
            try insert.execute([.text("storeIdentifier"), .text(identifier)])
            try insert.execute([.text("schemaVersion"), .text(version.description)])
            try insert.execute([.text("schema"), .text(schema)])
            try insert.execute([
                .text("model"),
                .text(try StoredSchema(entities: entities, layouts: layouts, version: version).encoded()),
            ])
            return identifier
        }
    }

    // MARK: - Using the Connection

    /// The most recent SQL the store ran, for tests.
    var statementLog: [String] { pool.log.statements }

    /// The number of SQL statements run so far, for tests that count queries.
    var statementCount: Int { pool.log.count }

    /// What identifiers of an entity's rows in this store share: one scope per entity for the store's lifetime,
    /// whichever read or save makes them.
    func identifierScope(entityName: String) -> IdentifierScope {
        identifierScopes[entityName]
    }

    /// Deletes every row of every entity and join table, in one transaction, then the external files they
    /// referred to.
    func deleteAllRows() throws {
        guard configuration.allowsSave else {
            throw SwiftDataError(
                .loadIssueModelContainer, "the store \(configuration.name) was opened with allowsSave: false")
        }
        let obsolete = try pool.write { connection in
            try connection.inTransaction {
                let files = external == nil ? [] : try referencedExternalFiles(connection)
                for entity in entities {
                    try connection.execute("DELETE FROM \(quoted(entity.tableName))")
                    if let spotlight = SpotlightIndex(entity: entity) {
                        try connection.execute("DELETE FROM \(quoted(spotlight.tableName))")
                    }
                    for table in SQLTableLayout.joinTables(of: entity) {
                        try connection.execute("DELETE FROM \(quoted(table))")
                    }
                }
                try clearHistory(connection)
                return files
            }
        }
        // As for a save: the files go once the deletion has committed.
        external?.remove(Array(obsolete))
    }
}
