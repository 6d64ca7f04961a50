import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// The stores the store-level suites run against: SQLite always, PostgreSQL when a server is named.
///
/// A store lives at a location, which a test makes once and opens containers on as often as it likes: a file in a
/// new temporary directory for SQLite, a new database on the test server for PostgreSQL.
enum TestedStore: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgreSQL

    var testDescription: String { rawValue }

    static var available: [TestedStore] { TestServer.isAvailable ? allCases : [.sqlite] }

    /// A new place for a store, with no store in it yet.
    func makeLocation() throws -> URL {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("swiftdata-store-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("test.store")
        case .postgreSQL:
            return try TestServer.makeDatabase()
        }
    }

    /// Opens a container on the store at a location, creating the store the first time.
    func container(
        _ types: any PersistentModel.Type..., at location: URL, allowsSave: Bool = true
    ) throws -> ModelContainer {
        try ModelContainer(for: Schema(types), configurations: [configuration(at: location, allowsSave: allowsSave)])
    }

    /// A container on a new store, for a test that opens it only once.
    func makeContainer(_ types: any PersistentModel.Type...) throws -> ModelContainer {
        try ModelContainer(
            for: Schema(types), configurations: [configuration(at: try makeLocation(), allowsSave: true)])
    }

    /// The configuration of the store at a location.
    private func configuration(at location: URL, allowsSave: Bool) -> any DataStoreConfiguration {
        switch self {
        case .sqlite: ModelConfiguration(url: location, allowsSave: allowsSave)
        case .postgreSQL: PostgreSQLConfiguration(url: location, allowsSave: allowsSave)
        }
    }

    /// The names of the indexes the store at a location has on an entity's table, read as another program would.
    func indexNames(onTableOf entityName: String, at location: URL) throws -> Set<String> {
        switch self {
        case .sqlite:
            let rows = try StoreFile(url: location, writable: false)
                .rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?1", [.text(entityName)])
            return Set(rows.compactMap { if case .text(let name) = $0.first { name } else { nil } })
        case .postgreSQL:
            let result = try PostgreSQLConnection(url: location).execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1",
                [.text(entityName)])
            return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
        }
    }
}
