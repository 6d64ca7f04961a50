import Foundation
import SwiftData
import SwiftDataSync
import Testing

/// Seed 002's notes, as the article declares them: fine for a local store, not for sync.
enum Seed002Notes {
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

@Model
final class RuleBreakingShelf {
    @Attribute(.unique) var code: String = ""
    var label: String
    @Relationship(deleteRule: .deny, inverse: \RuleBreakingBook.shelf) var books: [RuleBreakingBook]? = []
    var curator: RuleBreakingBook

    init(label: String, curator: RuleBreakingBook) {
        self.label = label
        self.curator = curator
    }
}

@Model
final class CappedShelf {
    var label: String = ""
    @Relationship(maximumModelCount: 3, inverse: \CappedBook.shelf) var books: [CappedBook]? = []

    init() {}
}

@Model
final class CappedBook {
    var shelf: CappedShelf?

    init() {}
}

@Model
final class RuleBreakingBook {
    var title: String = ""
    var shelf: RuleBreakingShelf?

    init() {}
}

@Suite struct SyncSchemaRuleTests {
    private func makeContainer(_ types: [any PersistentModel.Type], cloudKit: ModelConfiguration.CloudKitDatabase)
        throws -> ModelContainer
    {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).store")
        let schema = Schema(types)
        return try ModelContainer(
            for: schema, configurations: ModelConfiguration(schema: schema, url: url, cloudKitDatabase: cloudKit))
    }

    private func violations(_ types: [any PersistentModel.Type]) throws -> [SyncError.Violation] {
        let container = try makeContainer(types, cloudKit: .private("iCloud.test"))
        let server = SyncServer { _ in throw SyncError.offline }
        do {
            _ = try SyncEngine(container: container, server: server, account: "alice")
            return []
        } catch let error as SyncError where error == .schemaNotSyncable {
            return error.violations
        }
    }

    @Test func seed002sNoteNamesEachRequiredAttributeWithoutADefault() throws {
        let found = try violations([Seed002Notes.Note.self])
        #expect(
            Set(found.map { "\($0.entityName).\($0.propertyName) \($0.rule)" }) == [
                "Note.id requiredAttributeWithoutDefault", "Note.title requiredAttributeWithoutDefault",
                "Note.createdAt requiredAttributeWithoutDefault",
            ])
    }

    @Test func eachRuleIsNamedWithItsModelAndProperty() throws {
        let found = Set(
            try violations([RuleBreakingShelf.self, RuleBreakingBook.self]).map {
                "\($0.entityName).\($0.propertyName) \($0.rule)"
            })
        #expect(found.contains("RuleBreakingShelf.code uniqueConstraint"))
        #expect(found.contains("RuleBreakingShelf.label requiredAttributeWithoutDefault"))
        #expect(found.contains("RuleBreakingShelf.books denyDeleteRule"))
        #expect(found.contains("RuleBreakingShelf.curator nonOptionalRelationship"))
        #expect(!found.contains { $0.hasPrefix("RuleBreakingBook.") })
    }

    /// Members added on different replicas can together pass a maximum, and no replica could then save them.
    @Test func aMaximumModelCountIsNamed() throws {
        let found = try violations([CappedShelf.self, CappedBook.self])
        #expect(
            found.map { "\($0.entityName).\($0.propertyName) \($0.rule)" } == ["CappedShelf.books maximumModelCount"])
    }

    @Test func theNotesAppsModelsFollowTheRules() throws {
        #expect(try violations([SyncFolder.self, SyncNote.self, SyncLabel.self]).isEmpty)
    }

    @Test func aContainerThatDoesNotSyncIsRefused() throws {
        let container = try makeContainer([SyncNote.self, SyncFolder.self, SyncLabel.self], cloudKit: .none)
        #expect(throws: SyncError.noSyncedStore) {
            try SyncEngine(container: container, server: SyncServer { _ in throw SyncError.offline }, account: "a")
        }
        let inMemory = try ModelContainer(
            for: SyncNote.self, SyncFolder.self, SyncLabel.self,
            configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        #expect(throws: SyncError.noSyncedStore) {
            try SyncEngine(container: inMemory, server: SyncServer { _ in throw SyncError.offline }, account: "a")
        }
    }
}
