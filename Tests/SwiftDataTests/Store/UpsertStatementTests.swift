import Foundation
import Testing

@testable import SwiftData

/// A model with one non-optional unique attribute that nothing refers to: each insert is saved with one
/// `INSERT … ON CONFLICT … DO UPDATE` statement, and the row's key is looked up only after a conflict.
@Model
final class Setting {
    @Attribute(.unique) var name: String
    var value: Int
    var note: String?

    init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}

@Suite struct UpsertStatementTests {
    @Test func insertsTakeOverStoredRowsAndTheirTwinsAsTheLookupDoes() throws {
        let container = try makeInMemoryContainer(Setting.self)
        let writer = ModelContext(container)
        let stored = [
            Setting(name: "alpha", value: 1), Setting(name: "beta", value: 2), Setting(name: "caf\u{E9}", value: 3),
        ]
        stored[1].note = "kept"
        stored[0].note = "replaced"
        for setting in stored { writer.insert(setting) }
        try writer.save()

        let context = ModelContext(container)
        let inserted = [
            Setting(name: "alpha", value: 10), Setting(name: "gamma", value: 4),
            Setting(name: "cafe\u{301}", value: 30),
            Setting(name: "gamma", value: 5), Setting(name: "delta", value: 6),
        ]
        for setting in inserted { context.insert(setting) }
        try context.save()
        #expect(container.stores[0].statementLog.contains { $0.contains("ON CONFLICT") })

        // Stored rows keep their keys; the decomposed "café" is the precomposed one; the twins share a row.
        #expect(inserted[0].persistentModelID == stored[0].persistentModelID)
        #expect(inserted[2].persistentModelID == stored[2].persistentModelID)
        #expect(inserted[1].persistentModelID == inserted[3].persistentModelID)
        #expect(!stored.map(\.persistentModelID).contains(inserted[4].persistentModelID))
        #expect(Set(inserted.map(\.persistentModelID)).count == 4)

        let fresh = ModelContext(container)
        let rows = try fresh.fetch(FetchDescriptor<Setting>(sortBy: [SortDescriptor(\.value)]))
        #expect(rows.map(\.value) == [2, 5, 6, 10, 30])
        #expect(rows.map(\.persistentModelID).contains(inserted[1].persistentModelID))
        // A taken-over row holds every value of the model that took it over, `nil` included.
        #expect(rows.first?.note == "kept")
        #expect(rows[3].note == nil)
        // New rows get new keys after the stored ones, whatever keys the conflicting inserts were offered.
        let later = Setting(name: "epsilon", value: 7)
        context.insert(later)
        try context.save()
        #expect(try fresh.fetchCount(FetchDescriptor<Setting>()) == 6)
        #expect(!rows.map(\.persistentModelID).contains(later.persistentModelID))
    }

    /// Entities the statement cannot serve keep the lookup: `TripTag` is referred to by trips, `Trip` has no
    /// unique attribute, `Contact`'s constraint has two columns.
    @Test func otherEntitiesKeepTheLookup() throws {
        let container = try makeInMemoryContainer(Trip.self, Contact.self)
        let store = container.stores[0]
        #expect(store.upsertSQL(for: Schema.Entity.of(TripTag.self)) == nil)
        #expect(store.upsertSQL(for: Schema.Entity.of(Trip.self)) == nil)
        #expect(store.upsertSQL(for: Schema.Entity.of(Contact.self)) == nil)
    }
}
