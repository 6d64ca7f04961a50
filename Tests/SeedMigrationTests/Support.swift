import Foundation
import SwiftData

/// A unique directory for one test's store files.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftdata-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var store: URL { url.appendingPathComponent("migrating.store") }
}

/// Opens a container for a versioned schema on a store file, with or without a plan.
func open(
    _ version: any VersionedSchema.Type,
    at url: URL,
    plan: (any SchemaMigrationPlan.Type)? = nil
) throws -> ModelContainer {
    try ModelContainer(
        for: Schema(versionedSchema: version),
        migrationPlan: plan,
        configurations: ModelConfiguration(url: url)
    )
}
