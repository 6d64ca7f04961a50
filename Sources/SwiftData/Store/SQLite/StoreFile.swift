internal import CSQLite
internal import Foundation

/// A SwiftData store file opened without its model code, for tools (the `swiftdata` command): its metadata, the
/// schema it records, its rows and its external files.
///
/// It refuses what the library refuses, with the same errors: a file that is not a SQLite database, or a database
/// of another program. It never migrates: it reads and writes the tables as they are.
package final class StoreFile {
    /// The store's file.
    package let url: URL
    /// The metadata table's entries (`schema`, `model`, `schemaVersion`, `storeIdentifier`).
    package let metadata: [String: String]
    /// The schema the store recorded when it was created or last migrated.
    package let schema: StoredSchema
    /// Where the store keeps `.externalStorage` values that are too large for a row.
    package let externalDirectory: URL
    private let connection: SQLiteConnection

    /// Opens a store file, read-only unless `writable`.
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when the file does not exist, is not a SQLite database,
    ///   or is not a SwiftData store.
    package init(url: URL, writable: Bool) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SwiftDataError(.loadIssueModelContainer, "there is no store at \(url.path)")
        }
        try SQLiteStore.checkIsSQLiteFile(url)
        self.url = url
        do {
            connection = try SQLiteConnection(path: url.path, readOnly: !writable, log: SQLiteStatementLog())
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "cannot open store at \(url.path)", underlying: error)
        }
        let metadata: [String: String]
        do {
            metadata = try SQLiteStore.readMetadata(connection, path: url.path)
        } catch let error as SwiftDataError {
            throw error
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "\(url.path) is not a SwiftData store", underlying: error)
        }
        guard let model = metadata["model"] else {
            throw SwiftDataError(.loadIssueModelContainer, "\(url.path) is not a SwiftData store (it has no schema)")
        }
        do {
            schema = try StoredSchema.decoded(model)
        } catch {
            throw SwiftDataError(
                .loadIssueModelContainer, "\(url.path) records a schema that cannot be read", underlying: error)
        }
        self.metadata = metadata
        externalDirectory = ExternalDataStore(storeURL: url).directory
    }

    /// Makes a new, empty database file, for a tool that creates a store's tables itself (`swiftdata import`).
    ///
    /// - Throws: `SwiftDataError.loadIssueModelContainer` when a file exists at the URL or cannot be created.
    package init(creatingAt url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw SwiftDataError(.loadIssueModelContainer, "\(url.path) exists already")
        }
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            connection = try SQLiteConnection(path: url.path, readOnly: false, log: SQLiteStatementLog())
        } catch {
            throw SwiftDataError(.loadIssueModelContainer, "cannot create a store at \(url.path)", underlying: error)
        }
        self.url = url
        metadata = [:]
        schema = StoredSchema(version: "", entities: [])
        externalDirectory = ExternalDataStore(storeURL: url).directory
    }

    /// The rows a query returns.
    package func rows(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try connection.statement(sql).rows(values)
    }

    /// Runs a statement that returns no rows.
    package func execute(_ sql: String, _ values: [SQLValue] = []) throws {
        try connection.statement(sql).execute(values)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    package func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try connection.inTransaction(body)
    }

    /// The names of the tables in the file.
    package func tableNames() throws -> Set<String> {
        Set(
            try rows("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap {
                if case .text(let name) = $0[0] { return name }
                return nil
            })
    }

    /// The name of the metadata table.
    package static var metadataTable: String { SQLiteStore.metadataTable }
    /// The name of the table of history transactions, one row per save.
    package static var historyTable: String { SQLiteHistory.tableName }
    /// The name of every table's primary-key column.
    package static var primaryKeyColumn: String { SQLTableLayout.primaryKey }
    /// The name of a hierarchy table's class column.
    package static var typeColumn: String { SQLTableLayout.typeColumn }

    /// The external file a column value refers to, if it refers to one.
    package static func externalFileName(in value: SQLValue) -> String? { ExternalDataStore.fileName(in: value) }

    /// The column value that refers to an external file.
    package static func externalReference(to fileName: String) -> SQLValue {
        .text(ExternalDataStore.prefix + fileName)
    }
}

/// An SQL identifier in double quotes, for tools that build SQL over a store's tables.
package func quotedIdentifier(_ identifier: String) -> String { quoted(identifier) }
