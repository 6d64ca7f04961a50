internal import Foundation
internal import SwiftData

/// The PostgreSQL store behind one `PostgreSQLConfiguration`: its database, its tables and the statements that read
/// and write models, seen by the context through the store interface.
///
/// Tables follow the SQLite store's layout (`SQLTableLayout`): one per entity or inheritance hierarchy, a `"_pk"`
/// key, one column per attribute (one per field of a composite attribute), a column per to-one relationship and a
/// join table per many-to-many relationship. Keys come from one sequence, `"_swiftdata_keys"`. Each save is one
/// transaction on one connection of the pool.
final class PostgreSQLModelStore: Sendable {
    let identifier: String
    let configuration: PostgreSQLConfiguration
    let entities: [Schema.Entity]
    let layouts: [String: SQLTableLayout]
    let identifierScopes: IdentifierScopes
    let pool: PostgreSQLConnectionPool
    /// The tokens of the history transactions this store object saved, which its watch does not report.
    let ownTransactions = OwnTransactionNotes()
    /// True for the store a custom migration stage's contexts use, in the migration's transaction: its saves record
    /// no history, and a required column the stage has not filled yet reads as having no value.
    let isMigrationStore: Bool
    var dialect: PostgreSQLDialect { PostgreSQLDialect() }

    /// The table that records the store's identity and schema.
    static let metadataTable = "_swiftdata_metadata"
    /// The sequence every table's keys come from.
    static let keySequence = "_swiftdata_keys"
    /// The longest name PostgreSQL keeps whole: longer ones it cuts short, and two could then clash.
    static let longestName = 63

    /// Connects to the database and checks that it holds this schema's tables, creating them when it holds none.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` with a `PostgreSQLError` under it: the server cannot be
    ///   reached, refuses the login or has no such database; or the database holds another program's tables or
    ///   another schema of this one's (this store does not migrate yet).
    init(
        configuration: PostgreSQLConfiguration, entities: [Schema.Entity], version: Schema.Version,
        migrationPlan: (any SchemaMigrationPlan.Type)?
    ) throws {
        self.configuration = configuration
        self.entities = entities
        self.isMigrationStore = false
        let dialect = PostgreSQLDialect()
        let layouts = try Self.layouts(of: entities)
        self.layouts = layouts
        let server = ServerAddress.redacted(configuration.url)
        do {
            pool = try PostgreSQLConnectionPool(url: configuration.url)
        } catch let error as PostgreSQLError {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "cannot open the PostgreSQL store '\(configuration.name)' at \(server): \(error.message)",
                underlying: error)
        }
        let tables = PostgreSQLTables(entities: entities, layouts: layouts, version: version, dialect: dialect)
        try tables.checkNames(server: server)
        do {
            // Not `withConnection`, which runs its body again on a new connection after a lost one: a migration's
            // custom stages would run twice.
            let pool = self.pool
            let connection = try pool.take()
            defer { pool.give(connection) }
            identifier = try tables.open(connection, configuration: configuration, migrationPlan: migrationPlan)
        } catch let error as PostgreSQLError {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the PostgreSQL store '\(configuration.name)' at \(server) cannot be opened: \(error.message)",
                underlying: error)
        } catch let refusal as MigrationRefusal {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the PostgreSQL store '\(configuration.name)' at \(server) cannot be migrated: \(refusal.description)")
        }
        identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: entities)
    }

    /// A store over a migration's connection, whose tables exist already, for the contexts a custom stage runs.
    init(
        migratingWith connection: PostgreSQLConnection, tables: PostgreSQLTables, identifier: String,
        configuration: PostgreSQLConfiguration
    ) {
        self.configuration = configuration
        self.entities = tables.entities
        self.layouts = tables.layouts
        self.identifier = identifier
        self.identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: tables.entities)
        self.pool = PostgreSQLConnectionPool(sharing: connection, url: configuration.url)
        self.isMigrationStore = true
    }

    /// The table layouts of a store's entities; the entities of an inheritance hierarchy share one table.
    static func layouts(of entities: [Schema.Entity]) throws -> [String: SQLTableLayout] {
        var layouts: [String: SQLTableLayout] = [:]
        for entity in entities {
            let hierarchy = entities.filter { $0 !== entity && $0.tableName == entity.tableName }
            layouts[entity.name] = try SQLTableLayout(
                entity: entity, hierarchy: hierarchy, dialect: PostgreSQLDialect())
        }
        return layouts
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

    /// Runs a read with a connection of the pool, wrapping a failure in a `SwiftDataError` that names the entity.
    func read<Result>(_ sql: String, entityName: String, _ body: (PostgreSQLConnection) throws -> Result) throws
        -> Result
    {
        do {
            return try pool.withConnection(body)
        } catch let error as PostgreSQLError {
            throw SwiftDataError(
                .loadIssueModelContainer, "reading \(entityName) from the PostgreSQL store '\(name)' failed",
                entityName: entityName, sql: sql, underlying: error)
        }
    }
}
