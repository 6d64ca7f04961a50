import Foundation
import Testing

@testable import SwiftData

/// A model with one non-optional unique attribute that nothing refers to: each insert is saved with one
/// `INSERT … ON CONFLICT … DO UPDATE` statement, whose update names the row it overwrites.
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

/// A model whose unique attribute is an integer: equal values are the same value, so an update leaves it alone.
@Model
final class Counter {
    @Attribute(.unique) var number: Int
    var count: Int

    init(number: Int, count: Int) {
        self.number = number
        self.count = count
    }
}

/// A model of its unique attribute alone: a conflict has nothing to update.
@Model
final class Marker {
    @Attribute(.unique) var code: Int

    init(code: Int) { self.code = code }
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
        #expect(container.sqliteStores[0].statementLog.contains { $0.contains("ON CONFLICT") })

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

    @Test func anIntegerUniqueColumnIsNotRewrittenAndTakeOversStillWork() throws {
        let container = try makeInMemoryContainer(Counter.self, Marker.self)
        let store = container.sqliteStores[0]
        let counterSQL = try #require(store.upsertSQL(for: Schema.Entity.of(Counter.self)))
        #expect(
            counterSQL.hasSuffix(
                #"ON CONFLICT("number") DO UPDATE SET "count" = excluded."count" WHERE swiftdata_overwritten_row("_pk")"#
            ))
        let markerSQL = try #require(store.upsertSQL(for: Schema.Entity.of(Marker.self)))
        #expect(markerSQL.hasSuffix(#"ON CONFLICT("code") DO NOTHING"#))

        let writer = ModelContext(container)
        let stored = [Counter(number: 1, count: 10), Counter(number: 2, count: 20)]
        let storedMarker = Marker(code: 7)
        for counter in stored { writer.insert(counter) }
        writer.insert(storedMarker)
        try writer.save()

        let context = ModelContext(container)
        let inserted = [Counter(number: 2, count: 21), Counter(number: 3, count: 30)]
        let marker = Marker(code: 7)
        for counter in inserted { context.insert(counter) }
        context.insert(marker)
        try context.save()
        #expect(inserted[0].persistentModelID == stored[1].persistentModelID)
        #expect(!stored.map(\.persistentModelID).contains(inserted[1].persistentModelID))
        #expect(marker.persistentModelID == storedMarker.persistentModelID)
        let rows = try ModelContext(container).fetch(FetchDescriptor<Counter>(sortBy: [SortDescriptor(\.number)]))
        #expect(rows.map(\.count) == [10, 21, 30])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Marker>()) == 1)
    }

    /// A store whose unique entities the statement all serves gives each model its key as its row is written:
    /// each table gives its keys in the order the save lists its models, conflicting ones included, as when every
    /// key was given before the first row.
    @Test func keysFollowTheSaveOrderWhenGivenAsRowsAreWritten() throws {
        let container = try makeInMemoryContainer(Counter.self, Marker.self)
        #expect(container.sqliteStores[0].givesKeysAsRowsAreWritten)
        let writer = ModelContext(container)
        let counters = [Counter(number: 1, count: 1), Counter(number: 2, count: 2), Counter(number: 3, count: 3)]
        let markers = [Marker(code: 1), Marker(code: 2)]
        for (counter, marker) in zip(counters, markers) {
            writer.insert(counter)
            writer.insert(marker)
        }
        writer.insert(counters[2])
        try writer.save()
        #expect(counters.map(\.persistentModelID.primaryKey) == [1, 2, 3])
        #expect(markers.map(\.persistentModelID.primaryKey) == [1, 2])

        // The insert that takes over a stored row was given a key too, which the next new row does not reuse.
        let context = ModelContext(container)
        let inserted = [Counter(number: 2, count: 20), Counter(number: 4, count: 4), Counter(number: 5, count: 5)]
        let marker = Marker(code: 3)
        context.insert(inserted[0])
        context.insert(marker)
        context.insert(inserted[1])
        context.insert(inserted[2])
        try context.save()
        #expect(inserted.map(\.persistentModelID.primaryKey) == [2, 5, 6])
        #expect(marker.persistentModelID.primaryKey == 3)
    }

    /// A store with a relationship gives every key before the first row is written.
    @Test func aStoreWithRelationshipsGivesKeysFirst() throws {
        let container = try makeInMemoryContainer(Counter.self, Trip.self)
        #expect(!container.sqliteStores[0].givesKeysAsRowsAreWritten)
    }

    /// Entities the statement cannot serve keep the lookup: `TripTag` is referred to by trips, `Trip` has no
    /// unique attribute, `Contact`'s constraint has two columns.
    @Test func otherEntitiesKeepTheLookup() throws {
        let container = try makeInMemoryContainer(Trip.self, Contact.self)
        let store = container.sqliteStores[0]
        #expect(store.upsertSQL(for: Schema.Entity.of(TripTag.self)) == nil)
        #expect(store.upsertSQL(for: Schema.Entity.of(Trip.self)) == nil)
        #expect(store.upsertSQL(for: Schema.Entity.of(Contact.self)) == nil)
    }
}
