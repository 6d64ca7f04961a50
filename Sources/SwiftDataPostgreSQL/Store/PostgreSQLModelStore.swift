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
    init(configuration: PostgreSQLConfiguration, entities: [Schema.Entity], version: Schema.Version) throws {
        self.configuration = configuration
        self.entities = entities
        let dialect = PostgreSQLDialect()
        var layouts: [String: SQLTableLayout] = [:]
        for entity in entities {
            let hierarchy = entities.filter { $0 !== entity && $0.tableName == entity.tableName }
            layouts[entity.name] = try SQLTableLayout(entity: entity, hierarchy: hierarchy, dialect: dialect)
        }
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
            identifier = try pool.withConnection { connection in
                try tables.open(connection, allowsCreating: configuration.allowsSave)
            }
        } catch let error as PostgreSQLError {
            throw SwiftDataError(
                .loadIssueModelContainer,
                "the PostgreSQL store '\(configuration.name)' at \(server) cannot be opened: \(error.message)",
                underlying: error)
        }
        identifierScopes = IdentifierScopes(storeIdentifier: identifier, entities: entities)
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
