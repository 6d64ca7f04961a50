import Foundation
import SwiftData

// Seed 002's versioned schemas and plan, as the article writes them.

enum SchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        var id: UUID
        var title: String
        var createdAt: Date

        init(title: String) {
            self.id = UUID()
            self.title = title
            self.createdAt = .now
        }
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { .init(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        var id: UUID
        var title: String
        var createdAt: Date
        var pinnedAt: Date?

        init(title: String, pinnedAt: Date? = nil) {
            self.id = UUID()
            self.title = title
            self.createdAt = .now
            self.pinnedAt = pinnedAt
        }
    }
}

enum NoteMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)]
    }
}
