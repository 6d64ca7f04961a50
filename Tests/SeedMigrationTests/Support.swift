import Foundation
import PostgreSQLTestServer
import SwiftData
import SwiftDataPostgreSQL
import Testing

/// The stores migrations are tested on: SQLite always, PostgreSQL when `SWIFTDATA_POSTGRESQL_URL` names a server
/// (see the README; `.ci/run` always starts one).
enum MigratedStore: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgreSQL

    var testDescription: String { rawValue }

    static var available: [MigratedStore] { PostgreSQLTestServer.url == nil ? [.sqlite] : allCases }

    /// A new place for a store: a file in a new directory, or a new database.
    func makeLocation() throws -> StoreLocation {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "swiftdata-migration-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return StoreLocation(store: self, url: directory.appendingPathComponent("migrating.store"))
        case .postgreSQL:
            return StoreLocation(store: self, url: try PostgreSQLTestServer.makeDatabase())
        }
    }
}

/// Where one test's store is: an SQLite file or a PostgreSQL database.
struct StoreLocation {
    let store: MigratedStore
    let url: URL

    /// A configuration of the store at this location.
    var configuration: any DataStoreConfiguration {
        switch store {
        case .sqlite: ModelConfiguration(url: url)
        case .postgreSQL: PostgreSQLConfiguration(url: url)
        }
    }
}

/// Opens a container for a versioned schema at a store's location, with or without a plan.
func open(
    _ version: any VersionedSchema.Type,
    at location: StoreLocation,
    plan: (any SchemaMigrationPlan.Type)? = nil
) throws -> ModelContainer {
    try open(Schema(versionedSchema: version), at: location, plan: plan)
}

/// Opens a container for a schema at a store's location, with or without a plan.
func open(
    _ schema: Schema,
    at location: StoreLocation,
    plan: (any SchemaMigrationPlan.Type)? = nil
) throws -> ModelContainer {
    try ModelContainer(for: schema, migrationPlan: plan, configurations: [location.configuration])
}
