// A versioned schema with its models nested in each version, a migration plan with a lightweight and a custom
// stage, and the app's models named through a type alias, as Apple's migration documentation lays them out.
import Foundation
import SwiftData
import Testing

enum JournalSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }

    static var models: [any PersistentModel.Type] {
        [Entry.self]
    }

    @Model
    final class Entry {
        var title: String
        var body: String

        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }
}

enum JournalSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }

    static var models: [any PersistentModel.Type] {
        [Entry.self]
    }

    @Model
    final class Entry {
        var title: String
        var body: String
        var wordCount: Int = 0

        init(title: String, body: String) {
            self.title = title
            self.body = body
        }
    }
}

enum JournalSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }

    static var models: [any PersistentModel.Type] {
        [Entry.self]
    }

    @Model
    final class Entry {
        @Attribute(originalName: "title") var heading: String
        var body: String
        var wordCount: Int = 0

        init(heading: String, body: String) {
            self.heading = heading
            self.body = body
        }
    }
}

typealias Entry = JournalSchemaV3.Entry

enum JournalMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [JournalSchemaV1.self, JournalSchemaV2.self, JournalSchemaV3.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: JournalSchemaV1.self,
        toVersion: JournalSchemaV2.self,
        willMigrate: nil,
        didMigrate: { context in
            let entries = try context.fetch(FetchDescriptor<JournalSchemaV2.Entry>())
            for entry in entries {
                entry.wordCount = entry.body.split(separator: " ").count
            }
            try context.save()
        }
    )

    static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: JournalSchemaV2.self,
        toVersion: JournalSchemaV3.self
    )
}

@Suite struct VersionedSchemaTests {
    @Test func aStoreOfTheFirstVersionMigratesThroughEveryStage() throws {
        let url = try temporaryStoreURL()
        do {
            let container = try ModelContainer(
                for: JournalSchemaV1.Entry.self, configurations: ModelConfiguration(url: url))
            let context = ModelContext(container)
            context.insert(JournalSchemaV1.Entry(title: "Monday", body: "rain all day"))
            try context.save()
        }
        let container = try ModelContainer(
            for: Entry.self,
            migrationPlan: JournalMigrationPlan.self,
            configurations: ModelConfiguration(url: url)
        )
        let entries = try ModelContext(container).fetch(FetchDescriptor<Entry>())
        #expect(entries.map(\.heading) == ["Monday"])
        #expect(entries.map(\.wordCount) == [3])
    }
}
