import Foundation
import SwiftData
import SwiftDataPostgreSQL
import Testing

enum PGMigrationV1 {
    @Model
    final class PGItem {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

enum PGMigrationV2 {
    @Model
    final class PGItem {
        var name: String
        var note: String?
        @Relationship(inverse: \PGLabel.items) var labels: [PGLabel] = []

        init(name: String, note: String?) {
            self.name = name
            self.note = note
        }
    }

    @Model
    final class PGLabel {
        #Index<PGLabel>([\.text])
        var text: String
        var items: [PGItem] = []

        init(text: String) {
            self.text = text
        }
    }
}

enum PGMigrationV3 {
    @Model
    final class PGItem {
        var title: String

        init(title: String) {
            self.title = title
        }
    }
}

enum PGMigrationV4 {
    @Model
    final class PGItem {
        var name: URL

        init(name: URL) {
            self.name = name
        }
    }
}

/// A database written with an older schema opens with a newer one that the inferred migration can reach, and is
/// refused otherwise. (The migration suites in `SeedMigrationTests` run on both stores; these are PostgreSQL's own.)
@Suite(.enabled(if: TestServer.isAvailable, TestServer.absence))
struct PostgreSQLMigrationTests {
    @Test func aSchemaThatAddsOpensTheStoredRowsWithNewPropertiesEmpty() throws {
        let (first, database) = try makePostgreSQLContainer(PGMigrationV1.PGItem.self)
        let context = ModelContext(first)
        let original = PGMigrationV1.PGItem(name: "kept")
        context.insert(original)
        try context.save()

        let (second, _) = try makePostgreSQLContainer(PGMigrationV2.PGItem.self, url: database)
        let reader = ModelContext(second)
        let item = try #require(try reader.fetch(FetchDescriptor<PGMigrationV2.PGItem>()).first)
        #expect(item.name == "kept")
        #expect(item.note == nil)
        #expect(item.labels.isEmpty)
        let label = PGMigrationV2.PGLabel(text: "new")
        item.labels = [label]
        item.note = "now"
        try reader.save()
        let again = ModelContext(try makePostgreSQLContainer(PGMigrationV2.PGItem.self, url: database).0)
        let read = try #require(try again.fetch(FetchDescriptor<PGMigrationV2.PGItem>()).first)
        #expect(read.note == "now")
        #expect(read.labels.map(\.text) == ["new"])
        // The identity of the store is kept: the first container's identifiers name the same rows.
        #expect(read.persistentModelID.storeIdentifier == original.persistentModelID.storeIdentifier)
    }

    /// A property renamed without `originalName` is a removed property, whose values the store does not drop
    /// without a plan, and a new one, which the stored row has no value for.
    @Test func aRenameWithoutItsOriginalNameIsRefusedAndChangesNothing() throws {
        let (first, database) = try makePostgreSQLContainer(PGMigrationV1.PGItem.self)
        let context = ModelContext(first)
        context.insert(PGMigrationV1.PGItem(name: "kept"))
        try context.save()
        do {
            _ = try makePostgreSQLContainer(PGMigrationV3.PGItem.self, url: database)
            Issue.record("a schema that renames a property opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            #expect("\(error)".contains("PGItem.name is no longer in the code"))
        }
        let reopened = ModelContext(try makePostgreSQLContainer(PGMigrationV1.PGItem.self, url: database).0)
        #expect(try reopened.fetch(FetchDescriptor<PGMigrationV1.PGItem>()).map(\.name) == ["kept"])
    }

    /// A `String` that became a `URL` keeps its column type, and its stored strings may be no URLs.
    @Test func aTypeChangeThatKeepsTheColumnTypeIsRefused() throws {
        let (first, database) = try makePostgreSQLContainer(PGMigrationV1.PGItem.self)
        let context = ModelContext(first)
        context.insert(PGMigrationV1.PGItem(name: "not a URL"))
        try context.save()
        do {
            _ = try makePostgreSQLContainer(PGMigrationV4.PGItem.self, url: database)
            Issue.record("a schema that changes a property's type opened")
        } catch let error as SwiftDataError {
            #expect(error == .loadIssueModelContainer)
            #expect("\(error)".contains("PGItem.name changed"))
        }
    }
}

enum PGDeployV1 {
    @Model
    final class PGRecord {
        var name: String

        init(name: String) {
            self.name = name
        }
    }
}

enum PGDeployV2 {
    @Model
    final class PGRecord {
        var name: String
        var note: String?
        var count: Int = 0

        init(name: String, note: String?, count: Int) {
            self.name = name
            self.note = note
            self.count = count
        }
    }
}

extension PostgreSQLMigrationTests {
    /// A rolling deploy: processes of the old and the new version open one database in turn. Without a plan, the
    /// old version's inferred migration would drop what the new one added: it is refused, and nothing is lost.
    @Test func anOlderVersionOpeningANewerDatabaseIsRefusedAndLosesNothing() throws {
        let database = try TestServer.makeDatabase()
        do {
            let context = ModelContext(try makePostgreSQLContainer(PGDeployV1.PGRecord.self, url: database).0)
            context.insert(PGDeployV1.PGRecord(name: "old"))
            try context.save()
        }
        do {
            let context = ModelContext(try makePostgreSQLContainer(PGDeployV2.PGRecord.self, url: database).0)
            let old = try #require(try context.fetch(FetchDescriptor<PGDeployV2.PGRecord>()).first)
            #expect(old.count == 0)
            old.note = "noted"
            old.count = 5
            try context.save()
        }
        let error = #expect(throws: SwiftDataError.self) {
            try makePostgreSQLContainer(PGDeployV1.PGRecord.self, url: database)
        }
        #expect(error?.description.contains("PGRecord.note is no longer in the code") == true, "\(error as Any)")
        let context = ModelContext(try makePostgreSQLContainer(PGDeployV2.PGRecord.self, url: database).0)
        let records = try context.fetch(FetchDescriptor<PGDeployV2.PGRecord>())
        #expect(records.map(\.note) == ["noted"])
        #expect(records.map(\.count) == [5])
    }
}
